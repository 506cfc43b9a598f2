// What the wallet is answered at the response endpoint, by outcome: a presentation rejected by a
// policy gets a 400 OAuth error by default (the RP still reads `rejected`); `rejectedResponse:
// 'redirect'` keeps 200 + redirect_uri; a wallet's own error and a service failure get 200.
import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, memoryStore, type InstanceOptions, type PolicyError } from '@vp-authorizer/core';
import { createDcqlAuthorization, encryptResponse, fetchRequestObject, makeSdJwt, startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
afterEach(() => env?.close());

const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
const statusOf = async (id: string) => ((await (await env.api(`/openid4/vp/v1_0/authorizations/${id}/status`)).json()) as { status: string }).status;

const NONCE_MISMATCH: PolicyError = { type: 'https://example/holder-binding', code: 'holder_binding.nonce_mismatch', title: 'Nonce mismatch', detail: 'expected n-secret-1234' };
const rejectingVerifier: InstanceOptions['verifier'] = {
  verify: async (input) => input.presentations.map((p) => ({ path: p.path, policy: 'holderBinding', service: 'verifier' as const, error: NONCE_MISMATCH })),
  verifyIdToken: async () => [],
};

async function startCountingCodes(instance: Partial<InstanceOptions>) {
  const store = memoryStore({ sweepIntervalMs: 0 });
  const put = store.put.bind(store);
  let codes = 0;
  store.put = (key, value, ttl) => {
    codes++;
    return put(key, value, ttl);
  };
  env = await startAuthorizer({ store, instance });
  return { codes: () => codes };
}

async function respond(fields: (state: string, jwt: string) => Promise<Record<string, string>>) {
  const { json } = await createDcqlAuthorization(env.api);
  const ro = await fetchRequestObject(json.authorizeUrl!);
  const claims = decodeJwt(ro.jwt) as Record<string, string>;
  const res = await fetch(claims.response_uri!, form(await fields(claims.state!, ro.jwt)));
  return { id: json.authorizationId!, res, body: (await res.json()) as Record<string, string> };
}
const presentation = async (state: string, jwt: string) => ({ response: await encryptResponse(jwt, { vp_token: { pid: [await makeSdJwt()] }, state }) });

describe('the wallet answer for each outcome', () => {
  it('a presentation rejected by a policy is answered 400 invalid_request naming the failed check; the RP reads rejected', async () => {
    const counted = await startCountingCodes({ verifier: rejectingVerifier });
    const { id, res, body } = await respond(presentation);
    expect(res.status).toBe(400);
    expect(res.headers.get('retry-after')).toBeNull();
    expect(body).toEqual({ error: 'invalid_request', error_description: 'The presentation was not accepted (holder_binding.nonce_mismatch).' });
    // Nothing the verifier wrote in title or detail reaches the wallet.
    expect(JSON.stringify(body)).not.toContain('n-secret-1234');
    expect(counted.codes()).toBe(0);
    expect(await statusOf(id)).toBe('rejected');
    const policy = (await (await env.api(`/openid4/vp/v1_0/authorizations/${id}/policy-response`)).json()) as { data: { error?: PolicyError }[] };
    expect(policy.data.map((r) => r.error?.code)).toContain('holder_binding.nonce_mismatch');
  });

  it("rejectedResponse: 'redirect' answers 200 + redirect_uri whose response code resolves to rejected", async () => {
    await startCountingCodes({ verifier: rejectingVerifier, config: { openId4vp: { redirectUri: 'https://rp.example/callback', rejectedResponse: 'redirect' } } });
    const { id, res, body } = await respond(presentation);
    expect(res.status).toBe(200);
    const code = new URL(body.redirect_uri!).searchParams.get('response_code');
    const resolved = await env.api('/openid4/vp/v1_0/response-code/resolve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ response_code: code }) });
    expect(await resolved.json()).toEqual({ authorization_id: id, status: 'rejected' });
  });

  it("a wallet's own error response (access_denied) still gets 200 + redirect_uri", async () => {
    await startCountingCodes({ verifier: rejectingVerifier });
    const { id, res, body } = await respond(async (state) => ({ error: 'access_denied', state }));
    expect(res.status).toBe(200);
    expect(body.redirect_uri).toMatch(/^https:\/\/rp\.example\/callback\?response_code=/);
    expect(await statusOf(id)).toBe('rejected');
  });

  it('a service failure (status error) gets 200 + redirect_uri: the record is terminal, so nothing invites a retry', async () => {
    await startCountingCodes({ verifier: { verify: async () => Promise.reject(new Error('verifier down')), verifyIdToken: async () => [] } });
    const { id, res, body } = await respond(presentation);
    expect(res.status).toBe(200);
    expect(body.redirect_uri).toMatch(/response_code=/);
    expect(await statusOf(id)).toBe('error');
  });

  it('rejectedResponse takes only error or redirect', async () => {
    await expect(startAuthorizer({ instance: { config: { openId4vp: { rejectedResponse: 'silent' as 'error' } } } })).rejects.toThrow(ConfigError);
  });
});
