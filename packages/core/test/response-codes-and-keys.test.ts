import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { OTHER_KEY, createDcqlAuthorization, encryptResponse, fetchRequestObject, makeSdJwt, startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
afterEach(() => env?.close());

async function finishedWithCode(createExtra: Record<string, unknown> = {}) {
  const { json } = await createDcqlAuthorization(env.api, createExtra);
  const ro = await fetchRequestObject(json.authorizeUrl!);
  const claims = decodeJwt(ro.jwt);
  const response = await encryptResponse(ro.jwt, { vp_token: { pid: [await makeSdJwt()] }, state: claims.state });
  const post = await fetch(claims.response_uri as string, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ response }) });
  const { redirect_uri } = (await post.json()) as { redirect_uri: string };
  return { id: json.authorizationId!, redirectUri: redirect_uri, code: new URL(redirect_uri).searchParams.get('response_code')! };
}

const resolve = (code: string, key?: string) =>
  env.api('/openid4/vp/v1_0/response-code/resolve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ response_code: code }), ...(key ? { key } : {}) });

describe('response codes', () => {
  it('50 parallel resolves of one code: exactly one 200, 49 × 404', async () => {
    env = await startAuthorizer();
    const { code, id } = await finishedWithCode();
    const answers = await Promise.all(Array.from({ length: 50 }, () => resolve(code)));
    const ok = answers.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(answers.filter((r) => r.status === 404)).toHaveLength(49);
    expect(await ok[0]!.json()).toEqual({ authorization_id: id, status: 'authorized' });
  });

  it('a per-request redirectUri wins over the instance default and keeps its own query', async () => {
    env = await startAuthorizer();
    const { redirectUri } = await finishedWithCode({ redirectUri: 'https://shop.example/done?order=7' });
    const url = new URL(redirectUri);
    expect(url.origin + url.pathname).toBe('https://shop.example/done');
    expect(url.searchParams.get('order')).toBe('7');
    expect(Buffer.from(url.searchParams.get('response_code')!, 'base64url').length).toBe(32);
  });

  it('unknown, other-instance and expired codes are 404 (and other-instance does not burn it)', async () => {
    let now = Date.now();
    env = await startAuthorizer({ clock: { now: () => now } });
    expect((await resolve('does-not-exist')).status).toBe(404);
    const { code } = await finishedWithCode();
    const other = await resolve(code, OTHER_KEY);
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ type: 'response_code.not_found' });
    expect((await resolve(code)).status).toBe(200);

    const late = await finishedWithCode();
    now += 5 * 60_000 + 1;
    expect((await resolve(late.code)).status).toBe(404);
  });

  it('rejects a malformed resolve body with 400 and a pointer', async () => {
    env = await startAuthorizer();
    const res = await env.api('/openid4/vp/v1_0/response-code/resolve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ response_code: 5 }) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ type: 'request.invalid_body', errors: [{ pointer: '/response_code' }] });
  });
});

describe('API keys and instance scoping', () => {
  it('RP routes need a valid bearer key; wallet routes do not', async () => {
    env = await startAuthorizer();
    const path = '/openid4/vp/v1_0/authorizations';
    const body = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' };
    for (const key of [null, 'wrong-key-123456']) {
      const res = await env.api(path, { ...body, key });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ type: 'auth.unauthorized', status: 401 });
    }
    const basic = await fetch(`${env.base}${path}`, { ...body, headers: { ...body.headers, authorization: 'Basic dGVzdA==' } });
    expect(basic.status).toBe(401);
    const { json } = await createDcqlAuthorization(env.api);
    const ro = await fetchRequestObject(json.authorizeUrl!);
    expect(ro.res.status).toBe(200);
  });

  it("another instance's authorization is 404 on status, policy-response and credentials", async () => {
    env = await startAuthorizer();
    const { json } = await createDcqlAuthorization(env.api);
    for (const suffix of ['status', 'policy-response', 'credentials']) {
      const res = await env.api(`/openid4/vp/v1_0/authorizations/${json.authorizationId}/${suffix}`, { key: OTHER_KEY });
      expect(res.status).toBe(404);
    }
  });

  it('the trust anchor endpoint serves the configured root PEM', async () => {
    env = await startAuthorizer();
    const res = await env.api('/instances/oid4vp-trust-anchor');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { anchorType: string; certificate: string };
    expect(body.anchorType).toBe('root');
    expect(body.certificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
  });
});
