import { randomUUID } from 'node:crypto';
import type { ResolvedAuthorizerOptions } from '../config/authorizer-options.js';
import { ConfigError } from '../errors/config-error.js';
import { hasWebhookOutbox, outboxMethods } from '../model/webhook-outbox.js';
import type { InstanceRuntime } from '../runtime/instance-runtime.js';
import type { DeliveryOutbox } from './webhook-deliveries.js';

/**
 * The outbox status webhooks are kept in: the store's, when a store was passed in (other processes
 * may share it) and an instance has webhooks. The authorizer's own memory store is reachable by
 * no other process, so without a store its deliveries live in this process alone, as before.
 * A store passed in without the outbox (or with part of it) is refused when an instance has
 * webhooks: its deliveries would silently die with the process.
 */
export function webhookOutboxOf(parsed: ResolvedAuthorizerOptions, instances: Map<string, InstanceRuntime>): DeliveryOutbox | undefined {
  const store = parsed.store;
  if (!store) return undefined;
  const methods = outboxMethods(store);
  const withWebhooks = parsed.instances.filter((instance) => instance.webhooks !== undefined).map((instance) => instance.id);
  if (methods === 'all' && hasWebhookOutbox(store)) {
    if (withWebhooks.length === 0) return undefined;
    return { store, holder: randomUUID(), leaseMs: parsed.claimLeaseMs, keyOf: (instanceId) => instances.get(instanceId)?.webhooks?.key };
  }
  if (methods === 'none' && withWebhooks.length === 0) return undefined;
  const names = 'addWebhook, renewWebhooks, takeOverWebhooks, recordWebhookAttempts, removeWebhook';
  throw new ConfigError(
    methods === 'none'
      ? `store: instance${withWebhooks.length > 1 ? 's' : ''} ${withWebhooks.map((id) => JSON.stringify(id)).join(', ')} send status webhooks, which are kept in the store's webhook outbox so that another process delivers them if this one dies, and this store has no outbox (WebhookOutbox: ${names}). Use memoryStore(), redisStore() or postgresStore(), implement the outbox in your store (docs/multiple-processes.md, "Writing your own store"), or remove webhooks from the instances.`
      : `store: the store implements part of the webhook outbox (WebhookOutbox); missing: ${Array.isArray(methods) ? methods.join(', ') : ''}. Implement all of ${names}, or none.`,
  );
}
