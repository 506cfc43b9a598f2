import { API_KEY, PID_QUERY } from './constants.mjs';

/**
 * The authorizer the per-request benchmarks serve: one instance (`bench`, API_KEY) with
 * pass-through clients, a memory store, no sweep, and one pending authorization whose status
 * they read. `core` is a loaded @vp-authorizer/core (the installed one, or a build under test).
 */
export async function passThroughAuthorizer(core, { publicBaseUrl = 'http://127.0.0.1:1/authz' } = {}) {
  const { createAuthorizer, memoryStore, passThroughValidator, passThroughVerifier } = core;
  const { generateDevSigningKey } = await import('@vp-authorizer/keys');
  const { signing } = await generateDevSigningKey();
  const authorizer = createAuthorizer({
    publicBaseUrl,
    basePath: '/authz',
    sweepIntervalMs: 0,
    store: memoryStore({ sweepIntervalMs: 0 }),
    instances: [{ id: 'bench', apiKeys: [API_KEY], signing, validator: passThroughValidator(), verifier: passThroughVerifier(), config: { openId4vp: { redirectUri: 'https://rp.example/cb' } } }],
  });
  await authorizer.ready();
  const { authorizationId } = await authorizer.createAuthorization('bench', { responseMode: 'direct_post.jwt', query: PID_QUERY });
  return { authorizer, authorizationId, statusPath: `/openid4/vp/v1_0/authorizations/${authorizationId}/status` };
}
