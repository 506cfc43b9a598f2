/**
 * Worker process of the SIGKILL test (test/__fixtures__/worker-processes.ts): one authorizer on a
 * shared store (Redis or PostgreSQL: see shared-store.ts) behind a real HTTP server on 127.0.0.1,
 * whose verifier is a remote HTTP service (the test's slow one). The clock can be moved forward by a call, so claim deadlines can be
 * reached without waiting them out; `sweep` runs authorizer.sweepExpired(); `decided` names the
 * authorizations this process decided (its terminal status events), `leaseLost` those whose late
 * commit it refused (its `response.lease_lost` log lines).
 */
import { createAuthorizer, httpVerifierClient, passThroughValidator, type SigningInput } from '@vp-authorizer/core';
import { fetchHandlerTarget } from '@vp-authorizer/testing';
import { runWorker } from '../../__fixtures__/worker-process-child.js';
import type { RaceStore } from '../../store/race-worker.js';
import { connectStore } from './shared-store.js';

export interface WorkerConfig {
  /** The store every process of the test shares (a Redis key prefix or a migrated Postgres schema of its own). */
  store: RaceStore;
  publicBaseUrl: string;
  apiKey: string;
  signing: SigningInput;
  redirectUri: string;
  verifierUrl: string;
  verifyTimeoutMs: number;
  clientTimeoutMs: number;
  /** claimLeaseMs of the authorizer (its default when absent). */
  claimLeaseMs?: number;
}
export type WorkerCommand = { type: 'advance'; ms: number } | { type: 'sweep' } | { type: 'decided' } | { type: 'leaseLost' };
/** A failed sweep is an answer too (the test asserts there is none), not a failed call. */
export type WorkerReply = { value?: number; error?: string; ids?: string[] };

runWorker<WorkerConfig, { origin: string; pid: number }, WorkerCommand, WorkerReply>(async (config) => {
  let offset = 0;
  const decided: string[] = [];
  const leaseLost: string[] = [];
  const store = connectStore(config.store);
  const server = await fetchHandlerTarget().start({ prefix: '/authz' });
  const authorizer = createAuthorizer({
    publicBaseUrl: config.publicBaseUrl,
    basePath: '/authz',
    store,
    sweepIntervalMs: 0,
    clock: { now: () => Date.now() + offset },
    ...(config.claimLeaseMs !== undefined ? { claimLeaseMs: config.claimLeaseMs } : {}),
    onEvent: (event) => {
      if (event.type === 'authorization.authorized' || event.type === 'authorization.rejected' || event.type === 'authorization.error') decided.push(event.authorizationId);
    },
    logger: {
      warn: (fields) => {
        if (fields.event === 'response.lease_lost') leaseLost.push(String(fields.authorizationId));
      },
    },
    instances: [
      {
        id: 'main',
        apiKeys: [config.apiKey],
        signing: config.signing,
        validator: passThroughValidator(),
        verifier: httpVerifierClient({ url: config.verifierUrl, timeoutMs: config.clientTimeoutMs, retries: 0 }),
        // Both policies share the timeout, so the claim deadline is that timeout plus the core's margin.
        config: { openId4vp: { redirectUri: config.redirectUri }, policies: { validate: { timeoutMs: config.verifyTimeoutMs }, verify: { timeoutMs: config.verifyTimeoutMs } } },
      },
    ],
  });
  server.attach(authorizer);
  return {
    ready: { origin: server.origin, pid: process.pid },
    async handle(command) {
      if (command.type === 'advance') {
        offset += command.ms;
        return { value: offset };
      }
      if (command.type === 'decided') return { ids: [...decided] };
      if (command.type === 'leaseLost') return { ids: [...leaseLost] };
      return authorizer.sweepExpired().then(
        (value) => ({ value }),
        (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
      );
    },
    async close() {
      await authorizer.close();
      await server.close();
      await store.close();
    },
  };
});
