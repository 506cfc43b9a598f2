/**
 * Child process of the two-process HTTP test (bundled by bundle-worker.ts, run with
 * child_process.fork): one authorizer on the Redis store behind a real HTTP server on
 * 127.0.0.1. Every process gets the same configuration, as replicas behind a load balancer would.
 */
import { createAuthorizer, passThroughValidator, passThroughVerifier, type SigningInput } from '@vp-authorizer/core';
import { redisStore } from '@vp-authorizer/redis';
import { serveFetch } from '../../packages/core/test/support/serve-fetch.js';

export interface ServerConfig {
  type: 'start';
  redisUrl: string;
  keyPrefix: string;
  publicBaseUrl: string;
  apiKey: string;
  signing: SigningInput;
  redirectUri: string;
}
export type ServerMessage = { type: 'listening'; origin: string } | { type: 'failed'; message: string };

const send = (message: ServerMessage) => process.send!(message);

process.once('message', async (config: ServerConfig) => {
  try {
    const store = redisStore({ url: config.redisUrl, keyPrefix: config.keyPrefix });
    const server = await serveFetch();
    const authorizer = createAuthorizer({
      publicBaseUrl: config.publicBaseUrl,
      basePath: '/authz',
      store,
      sweepIntervalMs: 0,
      instances: [
        {
          id: 'main',
          apiKeys: [config.apiKey],
          signing: config.signing,
          validator: passThroughValidator(),
          verifier: passThroughVerifier(),
          config: { openId4vp: { redirectUri: config.redirectUri } },
        },
      ],
    });
    server.attach((request) => authorizer.fetch(request));
    process.once('disconnect', async () => {
      await authorizer.close();
      await server.close();
      await store.close();
      process.exit(0);
    });
    send({ type: 'listening', origin: server.origin });
  } catch (error) {
    send({ type: 'failed', message: error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error' });
  }
});
