/**
 * Worker process of the SIGKILL test (test/__fixtures__/worker-processes.ts): one authorizer on a
 * shared Redis behind a real HTTP server on 127.0.0.1, whose verifier is a remote HTTP service
 * (the test's slow one). The clock can be moved forward by a call, so claim deadlines can be
 * reached without waiting them out; `sweep` runs authorizer.sweepExpired().
 */
import { createAuthorizer, httpVerifierClient, passThroughValidator, type SigningInput } from '@vp-authorizer/core';
import { redisStore } from '@vp-authorizer/redis';
import { fetchHandlerTarget } from '@vp-authorizer/testing';
import { runWorker } from '../../__fixtures__/worker-process-child.js';

export interface WorkerConfig {
  redisUrl: string;
  keyPrefix: string;
  publicBaseUrl: string;
  apiKey: string;
  signing: SigningInput;
  redirectUri: string;
  verifierUrl: string;
  verifyTimeoutMs: number;
  clientTimeoutMs: number;
}
export type WorkerCommand = { type: 'advance'; ms: number } | { type: 'sweep' };
/** A failed sweep is an answer too (the test asserts there is none), not a failed call. */
export type WorkerReply = { value?: number; error?: string };

runWorker<WorkerConfig, { origin: string; pid: number }, WorkerCommand, WorkerReply>(async (config) => {
  let offset = 0;
  const store = redisStore({ url: config.redisUrl, keyPrefix: config.keyPrefix, commandTimeoutMs: 1_000 });
  const server = await fetchHandlerTarget().start({ prefix: '/authz' });
  const authorizer = createAuthorizer({
    publicBaseUrl: config.publicBaseUrl,
    basePath: '/authz',
    store,
    sweepIntervalMs: 0,
    clock: { now: () => Date.now() + offset },
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
