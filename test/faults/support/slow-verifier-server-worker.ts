/**
 * Child process of the SIGKILL test (bundled with test/store/bundle-worker.ts, run with fork):
 * one authorizer on a shared Redis behind a real HTTP server on 127.0.0.1, whose verifier is a
 * remote HTTP service (the test's slow one). The clock can be moved forward over IPC, so claim
 * deadlines can be reached without waiting them out; `sweep` runs authorizer.sweepExpired().
 */
import { createAuthorizer, httpVerifierClient, passThroughValidator, type SigningInput } from '@vp-authorizer/core';
import { redisStore } from '@vp-authorizer/redis';
import { serveFetch } from '../../../packages/core/test/support/serve-fetch.js';

export interface WorkerConfig {
  type: 'start';
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
export type WorkerCommand = { type: 'advance'; ms: number; seq: number } | { type: 'sweep'; seq: number };
export type WorkerMessage =
  | { type: 'listening'; origin: string; pid: number }
  | { type: 'failed'; message: string }
  | { type: 'done'; seq: number; value?: number; error?: string };

const send = (message: WorkerMessage) => process.send!(message);

process.once('message', async (config: WorkerConfig) => {
  try {
    let offset = 0;
    const store = redisStore({ url: config.redisUrl, keyPrefix: config.keyPrefix, commandTimeoutMs: 1_000 });
    const server = await serveFetch();
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
    server.attach((request) => authorizer.fetch(request));
    process.on('message', (command: WorkerCommand) => {
      if (command.type === 'advance') {
        offset += command.ms;
        send({ type: 'done', seq: command.seq, value: offset });
      } else if (command.type === 'sweep') {
        authorizer.sweepExpired().then(
          (value) => send({ type: 'done', seq: command.seq, value }),
          (error: unknown) => send({ type: 'done', seq: command.seq, error: error instanceof Error ? error.message : String(error) }),
        );
      }
    });
    process.once('disconnect', async () => {
      await authorizer.close();
      await server.close();
      await store.close();
      process.exit(0);
    });
    send({ type: 'listening', origin: server.origin, pid: process.pid });
  } catch (error) {
    send({ type: 'failed', message: error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error' });
  }
});
