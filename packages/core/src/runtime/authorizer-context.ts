import type { Clock, ResolvedAuthorizerOptions, ResolvedInstanceOptions } from '../config/authorizer-options.js';
import { ConfigError } from '../errors/config-error.js';
import type { AuthorizerEvent } from '../events/authorizer-event.js';
import { consoleLogger } from '../events/console-logger.js';
import { createEventLog, type EventLog } from '../events/log-events.js';
import { describeError, guardLogger, silentLogger } from '../events/logger.js';
import type { Instrumentation } from '../events/instrumentation.js';
import type { AuthorizationRecord } from '../model/authorization-record.js';
import type { AuthorizerStore } from '../model/authorizer-store.js';
import { outboundFetchPolicy } from '../outbound/outbound-fetch-policy.js';
import { memoryStore } from '../store/memory-store.js';
import { checkWebhookUrls } from '../webhooks/check-webhook-urls.js';
import { WebhookDeliveries } from '../webhooks/webhook-deliveries.js';
import { webhookOutboxOf } from '../webhooks/webhook-outbox-of.js';
import { webhookMessage, type StatusChange } from '../webhooks/webhook-message.js';
import { createInstanceRuntime, type InstanceRuntime } from './instance-runtime.js';
import { instrumentedStore } from './instrumented-store.js';
import { StatusWatchers } from './status-watchers.js';
import { StoreReadiness } from './store-readiness.js';

/** Everything an operation needs; built once per authorizer by createAuthorizerContext. */
export interface AuthorizerContext {
  publicBaseUrl: string;
  store: AuthorizerStore;
  clock: Clock;
  /** How long a claim on a wallet response holds without renewal, in ms (claim-lease.ts). */
  claimLeaseMs: number;
  /** The logger, one function per event of LOG_EVENTS (events/log-events.ts): nothing is logged outside that table. */
  log: EventLog;
  instances: Map<string, InstanceRuntime>;
  /** Tracing and metrics; undefined unless configured (then `store` is already wrapped by it). */
  instrumentation?: Instrumentation;
  /**
   * Publish an event (onEvent, event streams). A status change passes the record as it stands
   * after the change: its webhook (if the instance has webhooks) is queued from it.
   */
  emit(event: AuthorizerEvent, record?: AuthorizationRecord): void;
  /** The process's webhook queue (also checks a create request's webhookUrl against the policy). */
  webhooks: WebhookDeliveries;
  /** Listeners of the event streams (GET …/events) and their cap; `emit` notifies them. */
  statusWatchers: StatusWatchers;
  /** The store probe and readiness checks of GET /health/ready (shared and cached for a second). */
  readiness: StoreReadiness;
  /** Claims this process could not give back while the store was down (set by createAuthorizer: authorization/ builds it on the context). */
  claimReleases?: OwedClaims;
}

/** What the flow needs of the claim releases (implemented in authorization/claim-releases.ts). */
export interface OwedClaims {
  /** Remember a claim to give back once the store answers again. */
  owe(record: Pick<AuthorizationRecord, 'instanceId' | 'id' | 'version' | 'responseClaimedAt' | 'claimExpiresAt'>): void;
  /** Release an owed claim on this record now, if there is one; the record as it then stands. */
  settle(record: AuthorizationRecord): Promise<AuthorizationRecord>;
  close(): void;
}

export function instanceOf(ctx: AuthorizerContext, id: string): InstanceRuntime {
  const instance = ctx.instances.get(id);
  // Records are only ever created for configured instances; a missing one means it was removed from config.
  if (!instance) throw new Error('The instance of this authorization is no longer configured.');
  return instance;
}

/** A context and what closing it means (its own memory store, event streams, webhook deliveries). */
export interface OwnedContext {
  ctx: AuthorizerContext;
  close(): Promise<void>;
}

/**
 * Build the context from validated options: every instance's runtime (clients resolved, signing
 * checked), the store (a memory store of its own when none is given; wrapped when instrumentation
 * is configured), the event log, event streams and the webhook queue, and how an event is
 * published (onEvent, event streams, webhooks). Misconfiguration throws ConfigError here.
 */
export function createAuthorizerContext(parsed: ResolvedAuthorizerOptions): OwnedContext {
  const instances = new Map<string, InstanceRuntime>(parsed.instances.map((instance, i) => [instance.id, createInstanceRuntime(instance, i, parsed.clients, parsed)]));
  const ownStore = parsed.store ? undefined : memoryStore({ clock: parsed.clock });
  const logger = parsed.logger === 'console' || parsed.logger === 'console:debug' ? consoleLogger({ debug: parsed.logger === 'console:debug' }) : parsed.logger;
  const log = createEventLog(guardLogger(logger ?? silentLogger));
  const onEvent = parsed.onEvent;
  const { maxStreams, maxStreamsPerInstance } = parsed.eventStreams;
  const statusWatchers = new StatusWatchers({
    ...parsed.eventStreams,
    maxStreamsPerInstance: maxStreamsPerInstance ?? (parsed.instances.length > 1 ? Math.ceil(maxStreams / 2) : maxStreams),
  });
  const webhookSettings = { ...parsed.webhookDelivery, outbound: parsed.webhookDelivery.outbound ?? outboundFetchPolicy() };
  checkWebhookUrls(parsed.instances, webhookSettings.outbound);

  function publish(event: AuthorizerEvent): void {
    statusWatchers.notify(event);
    if (!onEvent) return;
    // A failing hook must never break or slow the flow that emitted the event.
    try {
      void Promise.resolve(onEvent(event)).catch((error: unknown) => log['hook.on_event_failed']?.({ eventType: event.type, err: describeError(error) }));
    } catch (error) {
      log['hook.on_event_failed']?.({ eventType: event.type, err: describeError(error) });
    }
  }
  const webhooks = new WebhookDeliveries(webhookSettings, parsed.clock, log, publish, webhookOutboxOf(parsed, instances));

  /** Queue the webhook of one status change, when its instance has webhooks and a URL for it. */
  function queueWebhook(event: StatusChange, record: AuthorizationRecord): void {
    const config = instances.get(record.instanceId)?.webhooks;
    const url = record.request.webhookUrl ?? config?.url;
    if (!config || url === undefined) return;
    try {
      webhooks.enqueue(webhookMessage(event, record), { instanceId: record.instanceId, authorizationId: record.id, url, key: config.key, sequence: record.version });
    } catch (error) {
      // The change is stored and will be answered: a webhook problem must never turn it into a failure.
      log['webhook.queue_failed']?.({ eventType: event.type, authorizationId: record.id, err: describeError(error) });
    }
  }

  const instrumentation = parsed.instrumentation;
  const store = parsed.store ?? ownStore!;
  const ctxStore = instrumentation ? instrumentedStore(store, instrumentation) : store;
  const ctx: AuthorizerContext = {
    publicBaseUrl: parsed.publicBaseUrl,
    store: ctxStore,
    readiness: new StoreReadiness(ctxStore, parsed.clock, undefined, undefined, parsed.readiness),
    ...(instrumentation ? { instrumentation } : {}),
    clock: parsed.clock,
    claimLeaseMs: parsed.claimLeaseMs,
    log,
    instances,
    statusWatchers,
    webhooks,
    emit(event: AuthorizerEvent, record?: AuthorizationRecord) {
      publish(event);
      if (record && event.type.startsWith('authorization.')) queueWebhook(event as StatusChange, record);
    },
  };
  assertDistinctApiKeys(parsed.instances);
  return {
    ctx,
    async close() {
      ctx.claimReleases?.close();
      statusWatchers.closeAll();
      await webhooks.close();
      ownStore?.close();
    },
  };
}

/** One key must identify one instance: a shared key would silently pick whichever came first. */
function assertDistinctApiKeys(instances: readonly ResolvedInstanceOptions[]): void {
  const seen = new Map<string, string>();
  for (const instance of instances) {
    for (const key of instance.apiKeys) {
      const other = seen.get(key);
      if (other !== undefined && other !== instance.id) throw new ConfigError(`Instances "${other}" and "${instance.id}" share an API key; every key must belong to one instance.`);
      seen.set(key, instance.id);
    }
  }
}
