import { beforeAll, describe, expect, it } from 'vitest';
import { createAuthorizer, type Authorizer } from '../authorizer.js';
import { passThroughValidator, passThroughVerifier } from '../clients/pass-through-clients.js';
import { generateDevSigningKey } from '@vp-authorizer/keys';

// Every key of every instance (two each, as during a rotation) must reach its own instance; a
// key is hashed once per request and compared against all of them.
let authorizer: Authorizer;
const keys = { a: ['key-a-current-0001', 'key-a-previous-0001'], b: ['key-b-current-0001', 'key-b-previous-0001'] };

beforeAll(async () => {
  const { signing } = await generateDevSigningKey();
  const instance = (id: 'a' | 'b') => ({ id, apiKeys: keys[id], signing, validator: passThroughValidator(), verifier: passThroughVerifier(), config: { openId4vp: { redirectUri: 'https://rp.example/cb' } } });
  authorizer = createAuthorizer({ publicBaseUrl: 'https://rp.example/authz', sweepIntervalMs: 0, instances: [instance('a'), instance('b')] });
});

const statusWith = async (id: string, authorization: string | undefined) => {
  const headers = new Headers(authorization === undefined ? {} : { authorization });
  return authorizer.handle({ method: 'GET', path: `/openid4/vp/v1_0/authorizations/${id}/status`, query: new URLSearchParams(), headers });
};

describe('API keys', () => {
  it('let every key of an instance read its authorizations, and no key of another instance', async () => {
    const a = await authorizer.createAuthorization('a', { responseMode: 'direct_post', query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] } }] } } });
    for (const key of keys.a) expect((await statusWith(a.authorizationId, `Bearer ${key}`)).status).toBe(200);
    for (const key of keys.b) expect((await statusWith(a.authorizationId, `bearer  ${key}`)).status).toBe(404);
  });

  it('refuse a missing, malformed, unknown or altered key with 401', async () => {
    for (const authorization of [undefined, 'Basic key-a-current-0001', 'Bearer', 'Bearer key-a-current-000', 'Bearer key-a-current-00011', 'Bearer KEY-A-CURRENT-0001', 'Bearer key-a-current-0001 extra']) {
      const res = await statusWith('P5qVLGQOLtFWWGv8i6N8VQ', authorization);
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body!)).toMatchObject({ type: 'auth.unauthorized' });
    }
  });
});
