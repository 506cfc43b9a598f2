/**
 * Worker process of the two-process HTTP test (test/__fixtures__/worker-processes.ts): one authorizer
 * on the Redis store behind a real HTTP server on 127.0.0.1. Every process gets the same
 * configuration, as replicas behind a load balancer would.
 */
import { createAuthorizer, outboundFetchPolicy, passThroughValidator, passThroughVerifier, type SigningInput } from '@vp-authorizer/core';
import { redisStore } from '@vp-authorizer/redis';
import { fetchHandlerTarget } from '@vp-authorizer/testing';
import { runWorker } from '../__fixtures__/worker-process-child.js';

export interface ServerConfig {
  redisUrl: string;
  keyPrefix: string;
  publicBaseUrl: string;
  apiKey: string;
  signing: SigningInput;
  redirectUri: string;
  /** The instance's request-object delivery policy (openId4vp.requestObject); default when absent. */
  requestObject?: { methods?: ('GET' | 'POST')[]; singleFetch?: boolean };
  /** Status webhooks to a receiver of the test (on 127.0.0.1, so the policy's test-only escape is on). */
  webhooks?: { url: string; secret: string };
}

runWorker<ServerConfig, { origin: string }>(async (config) => {
  const store = redisStore({ url: config.redisUrl, keyPrefix: config.keyPrefix });
  const server = await fetchHandlerTarget().start({ prefix: '/authz' });
  const authorizer = createAuthorizer({
    publicBaseUrl: config.publicBaseUrl,
    basePath: '/authz',
    store,
    sweepIntervalMs: 0,
    ...(config.webhooks ? { webhookDelivery: { initialBackoffMs: 20, outbound: outboundFetchPolicy({ dangerouslyAllowAnyDestination: true }) } } : {}),
    instances: [
      {
        id: 'main',
        apiKeys: [config.apiKey],
        signing: config.signing,
        validator: passThroughValidator(),
        verifier: passThroughVerifier(),
        ...(config.webhooks ? { webhooks: config.webhooks } : {}),
        config: { openId4vp: { redirectUri: config.redirectUri, ...(config.requestObject ? { requestObject: config.requestObject } : {}) } },
      },
    ],
  });
  server.attach(authorizer);
  return {
    ready: { origin: server.origin },
    async close() {
      await authorizer.close();
      await server.close();
      await store.close();
    },
  };
});
