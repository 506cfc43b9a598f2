/**
 * Worker process of the webhook outbox kill test (test/__fixtures__/worker-processes.ts): one
 * authorizer on a shared store (Redis or PostgreSQL, see shared-store.ts) whose instance sends
 * status webhooks to the test's receiver on 127.0.0.1. `create` makes authorizations (each queues
 * its `authorization.created` webhook); `delivered` names the webhook ids this process delivered
 * (its `webhook.delivered` events) and `takenOver` those it took over from the outbox.
 */
import { createAuthorizer, outboundFetchPolicy, passThroughValidator, passThroughVerifier, type SigningInput } from '@vp-authorizer/core';
import { runWorker } from '../../__fixtures__/worker-process-child.js';
import type { RaceStore } from '../../store/race-worker.js';
import { connectStore } from './shared-store.js';

export interface OutboxWorkerConfig {
  store: RaceStore;
  apiKey: string;
  signing: SigningInput;
  webhooks: { url: string; secret: string };
  claimLeaseMs: number;
}
export type OutboxWorkerCommand = { type: 'create'; count: number } | { type: 'delivered' } | { type: 'takenOver' };
export type OutboxWorkerReply = { ids: string[] };

runWorker<OutboxWorkerConfig, { pid: number }, OutboxWorkerCommand, OutboxWorkerReply>(async (config) => {
  const delivered: string[] = [];
  const takenOver: string[] = [];
  const store = connectStore(config.store);
  const log = () => undefined;
  const authorizer = createAuthorizer({
    publicBaseUrl: 'https://verifier.example/authz',
    store,
    sweepIntervalMs: 0,
    claimLeaseMs: config.claimLeaseMs,
    onEvent: (event) => {
      if (event.type === 'webhook.delivered') delivered.push(event.webhookId);
    },
    logger: {
      debug: log,
      warn: log,
      error: log,
      info: (fields: Record<string, unknown>) => {
        if (fields.event === 'webhook.taken_over') takenOver.push(String(fields.webhookId));
      },
    },
    webhookDelivery: { timeoutMs: 500, initialBackoffMs: 100, maxBackoffMs: 400, maxAttempts: 50, outbound: outboundFetchPolicy({ dangerouslyAllowAnyDestination: true }) },
    instances: [
      { id: 'main', apiKeys: [config.apiKey], signing: config.signing, validator: passThroughValidator(), verifier: passThroughVerifier(), webhooks: config.webhooks, config: { openId4vp: { redirectUri: 'https://rp.example/callback' } } },
    ],
  });
  return {
    ready: { pid: process.pid },
    async handle(command) {
      if (command.type === 'delivered') return { ids: delivered.slice() };
      if (command.type === 'takenOver') return { ids: takenOver.slice() };
      const ids: string[] = [];
      for (let i = 0; i < command.count; i++) {
        const created = await authorizer.createAuthorization('main', { responseMode: 'direct_post', query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] } }] } } });
        ids.push(created.authorizationId);
      }
      return { ids };
    },
    async close() {
      await authorizer.close();
      await store.close();
    },
  };
});
