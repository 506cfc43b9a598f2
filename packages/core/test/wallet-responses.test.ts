import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthorizerEvent } from '@vp-authorizer/core';
import { createDcqlAuthorization, encryptResponse, fetchRequestObject, makeSdJwt, startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
afterEach(() => env?.close());

const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
const statusOf = async (id: string) => ((await (await env.api(`/openid4/vp/v1_0/authorizations/${id}/status`)).json()) as { status: string }).status;

async function prepare(createExtra: Record<string, unknown> = {}) {
  const { json } = await createDcqlAuthorization(env.api, createExtra);
  const ro = await fetchRequestObject(json.authorizeUrl!);
  const claims = decodeJwt(ro.jwt) as Record<string, string>;
  return { id: json.authorizationId!, ro, claims };
}

describe('direct_post (unencrypted)', () => {
  it('accepts a form vp_token JSON string and answers {redirect_uri}', async () => {
    env = await startAuthorizer();
    const { id, claims } = await prepare({ responseMode: 'direct_post' });
    expect(claims.response_uri).toMatch(/\/direct_post$/);
    const res = await fetch(claims.response_uri!, form({ vp_token: JSON.stringify({ pid: [await makeSdJwt()] }), state: claims.state! }));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(await res.json())).toEqual(['redirect_uri']);
    expect(await statusOf(id)).toBe('authorized');
  });

  it('answers {} when no redirect URI is configured', async () => {
    env = await startAuthorizer({ instance: { config: {} } });
    const { id, claims } = await prepare({ responseMode: 'direct_post' });
    const res = await fetch(claims.response_uri!, form({ vp_token: JSON.stringify({ pid: [await makeSdJwt()] }), state: claims.state! }));
    expect(await res.json()).toEqual({});
    expect(await statusOf(id)).toBe('authorized');
  });

  it('a wallet error (access_denied) ends rejected with the error kept', async () => {
    env = await startAuthorizer();
    const { id, claims } = await prepare({ responseMode: 'direct_post' });
    const res = await fetch(claims.response_uri!, form({ error: 'access_denied', error_description: 'user said no', state: claims.state! }));
    expect(res.status).toBe(200);
    expect(await statusOf(id)).toBe('rejected');
    const policy = (await (await env.api(`/openid4/vp/v1_0/authorizations/${id}/policy-response`)).json()) as { data: { error?: { code?: string } }[] };
    expect(policy.data[0]!.error!.code).toBe('wallet.access_denied');
  });

  it('a wrong or missing state is refused with 400 and changes nothing', async () => {
    env = await startAuthorizer();
    const { id, claims } = await prepare({ responseMode: 'direct_post' });
    const vp = JSON.stringify({ pid: [await makeSdJwt()] });
    const wrong = await fetch(claims.response_uri!, form({ vp_token: vp, state: 'not-the-state' }));
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_request' });
    expect((await fetch(claims.response_uri!, form({ vp_token: vp }))).status).toBe(400);
    expect(await statusOf(id)).toBe('pending');
    expect((await fetch(claims.response_uri!, form({ vp_token: vp, state: claims.state! }))).status).toBe(200);
    expect(await statusOf(id)).toBe('authorized');
  });
});

describe('direct_post.jwt', () => {
  it('refuses an unencrypted vp_token, accepts an unencrypted error', async () => {
    env = await startAuthorizer();
    const { id, claims } = await prepare();
    const plain = await fetch(claims.response_uri!, form({ vp_token: JSON.stringify({ pid: ['x~'] }), state: claims.state! }));
    expect(plain.status).toBe(400);
    expect(await statusOf(id)).toBe('pending');
    const error = await fetch(claims.response_uri!, form({ error: 'access_denied', state: claims.state! }));
    expect(error.status).toBe(200);
    expect(await statusOf(id)).toBe('rejected');
  });

  it('refuses a JWE for another authorization key, and a garbage JWE, changing nothing', async () => {
    env = await startAuthorizer();
    const a = await prepare();
    const b = await prepare();
    const forB = await encryptResponse(b.ro.jwt, { vp_token: { pid: [await makeSdJwt()] }, state: a.claims.state });
    expect((await fetch(a.claims.response_uri!, form({ response: forB }))).status).toBe(400);
    expect((await fetch(a.claims.response_uri!, form({ response: 'a.b.c.d.e' }))).status).toBe(400);
    expect(await statusOf(a.id)).toBe('pending');
  });

  it('accepts A128GCM as well as A256GCM', async () => {
    env = await startAuthorizer();
    const { id, ro, claims } = await prepare();
    const response = await encryptResponse(ro.jwt, { vp_token: { pid: [await makeSdJwt()] }, state: claims.state }, 'A128GCM');
    expect((await fetch(claims.response_uri!, form({ response }))).status).toBe(200);
    expect(await statusOf(id)).toBe('authorized');
  });

  it('a response is accepted at most once, also under 20 concurrent submissions; the first result stays', async () => {
    const events: AuthorizerEvent[] = [];
    env = await startAuthorizer({ onEvent: (e) => void events.push(e) });
    const { id, ro, claims } = await prepare();
    const response = await encryptResponse(ro.jwt, { vp_token: { pid: [await makeSdJwt()] }, state: claims.state });
    const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(claims.response_uri!, form({ response }))));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(19);
    expect(await statusOf(id)).toBe('authorized');
    expect(events.filter((e) => e.type === 'authorization.authorized')).toHaveLength(1);
    const again = await fetch(claims.response_uri!, form({ error: 'access_denied', state: claims.state! }));
    expect(again.status).toBe(400);
    expect(await statusOf(id)).toBe('authorized');
  });

  it('an expired authorization refuses responses and reads as expired', async () => {
    let now = Date.now();
    env = await startAuthorizer({ clock: { now: () => now } });
    const { id, ro, claims } = await prepare();
    now += 5 * 60_000 + 1;
    const response = await encryptResponse(ro.jwt, { vp_token: { pid: [await makeSdJwt()] }, state: claims.state });
    const res = await fetch(claims.response_uri!, form({ response }));
    expect(res.status).toBe(400);
    expect(await statusOf(id)).toBe('expired');
  });
});

describe('Digital Credentials API', () => {
  const dcql = { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] } }] };
  const create = (body: Record<string, unknown>) =>
    env.api('/openid4/vp/v1_0/authorizations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: { type: 'DCQL', dcql }, ...body }) });
  const post = (id: string, mode: string, body: unknown, key?: string) =>
    env.api(`/openid4/vp/v1_0/${id}/${mode}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), ...(key ? { key } : {}) });

  it('dc_api unsigned: pending at creation, vp_token answered with the terminal status', async () => {
    env = await startAuthorizer();
    const created = (await (await create({ responseMode: 'dc_api', protocol: 'openid4vp-v1-unsigned' })).json()) as Record<string, any>;
    expect(Object.keys(created).sort()).toEqual(['authorizationId', 'digitalCredentialGetRequest', 'expiresAt', 'nonce', 'responseUrl']);
    expect(created.digitalCredentialGetRequest.data.client_id).toBeUndefined();
    expect(await statusOf(created.authorizationId)).toBe('pending');
    const res = await post(created.authorizationId, 'dc_api', { origin: 'https://rp.example', digitalCredentialGetResponse: { vp_token: { pid: [await makeSdJwt()] } } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'authorized' });
    expect((await post(created.authorizationId, 'dc_api', { origin: 'https://rp.example', digitalCredentialGetResponse: { vp_token: { pid: ['x~'] } } })).status).toBe(400);
  });

  it('dc_api.jwt signed: the origin must be expected; the audience is origin:<origin>', async () => {
    let audience = '';
    env = await startAuthorizer({
      instance: { verifier: { verify: async (input) => ((audience = input.audience), input.presentations.map((p) => ({ path: p.path, policy: 'proof', service: 'verifier' as const, data: {} }))), verifyIdToken: async () => [] } },
    });
    const created = (await (await create({ responseMode: 'dc_api.jwt', protocol: 'openid4vp-v1-signed', expectedOrigins: ['https://rp.example'] })).json()) as Record<string, any>;
    const requestJwt = created.digitalCredentialGetRequest.data.request as string;
    const claims = decodeJwt(requestJwt) as Record<string, any>;
    expect(claims.expected_origins).toEqual(['https://rp.example']);
    const response = await encryptResponse(requestJwt, { vp_token: { pid: [await makeSdJwt()] } });
    const refused = await post(created.authorizationId, 'dc_api.jwt', { origin: 'https://evil.example', digitalCredentialGetResponse: { response } });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { type: string }).type).toBe('authorization.origin_mismatch');
    const okRes = await post(created.authorizationId, 'dc_api.jwt', { origin: 'https://rp.example', digitalCredentialGetResponse: { response } });
    expect(await okRes.json()).toEqual({ status: 'authorized' });
    expect(audience).toBe('origin:https://rp.example');
  });

  it('another instance cannot submit or read it (404)', async () => {
    env = await startAuthorizer();
    const created = (await (await create({ responseMode: 'dc_api', protocol: 'openid4vp-v1-unsigned' })).json()) as Record<string, any>;
    const res = await post(created.authorizationId, 'dc_api', { origin: 'https://rp.example', digitalCredentialGetResponse: { vp_token: {} } }, 'test-api-key-other-0001');
    expect(res.status).toBe(404);
  });
});
