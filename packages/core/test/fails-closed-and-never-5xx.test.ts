// Failures end the authorization in a terminal state and fail closed; hostile or odd input is a
// 4xx, never a 500; a throwing logger or a shared API key cannot break the service.
import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryStore, type AuthorizationRecord } from '@vp-authorizer/core';
import { DCQL_SD_JWT, createDcqlAuthorization, encryptResponse, fetchRequestObject, makeSdJwt, startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
afterEach(() => env?.close());

const statusOf = async (id: string) => ((await (await env.api(`/openid4/vp/v1_0/authorizations/${id}/status`)).json()) as { status: string }).status;
const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });

describe('deeply nested JSON', () => {
  it('a 50k-deep member in a create body is a 400, not a 500', async () => {
    env = await startAuthorizer();
    const dcql = JSON.stringify(DCQL_SD_JWT).slice(0, -1) + `,"x":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}`;
    const body = `{"responseMode":"direct_post.jwt","query":{"type":"DCQL","dcql":${dcql}}}`;
    const res = await env.api('/openid4/vp/v1_0/authorizations', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(400);
  });

  it('a deep vp_token with both policies skipped ends terminal, never 5xx or stuck pending', async () => {
    env = await startAuthorizer({ instance: { config: { openId4vp: { redirectUri: 'https://rp.example/cb' }, policies: { validate: { skip: true }, verify: { skip: true } } } } });
    const { json } = await env
      .api('/openid4/vp/v1_0/authorizations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ responseMode: 'direct_post', query: { type: 'DCQL', dcql: { credentials: [{ id: 'ldp', format: 'ldp_vc' }] } } }) })
      .then(async (r) => ({ json: (await r.json()) as Record<string, string> }));
    const ro = await fetchRequestObject(json.authorizeUrl!);
    const claims = decodeJwt(ro.jwt) as Record<string, string>;
    const vp = `{"ldp":[{"credentialSubject":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}]}`;
    const res = await fetch(claims.response_uri!, form({ vp_token: vp, state: claims.state! }));
    expect(res.status).toBeLessThan(500);
    expect(['rejected', 'error']).toContain(await statusOf(json.authorizationId!));
  });
});

describe('a failure after the claim', () => {
  it('ends the authorization in error, not pending', async () => {
    const store = memoryStore({ sweepIntervalMs: 0 });
    const original = store.compareAndSet.bind(store);
    let writes = 0;
    // The claim succeeds; the terminal write blows up once (a store fault mid-flow).
    store.compareAndSet = async (next: AuthorizationRecord, expected: number) => {
      if (next.responseClaimedAt !== undefined && next.status !== 'pending' && next.status !== 'error' && writes++ === 0) throw new Error('store write failed');
      return original(next, expected);
    };
    env = await startAuthorizer({ store });
    const { json } = await createDcqlAuthorization(env.api);
    const ro = await fetchRequestObject(json.authorizeUrl!);
    const claims = decodeJwt(ro.jwt);
    const response = await encryptResponse(ro.jwt, { vp_token: { pid: [await makeSdJwt()] }, state: claims.state });
    const res = await fetch(claims.response_uri as string, form({ response }));
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'server_error', error_description: 'An internal error occurred.' });
    expect(await statusOf(json.authorizationId!)).toBe('error');
  });
});

describe('fail closed on missing results', () => {
  it('a verifier answering [] gives error and hands out no credentials', async () => {
    env = await startAuthorizer({ instance: { verifier: { verify: async () => [], verifyIdToken: async () => [] } } });
    const { json } = await createDcqlAuthorization(env.api);
    const ro = await fetchRequestObject(json.authorizeUrl!);
    const claims = decodeJwt(ro.jwt);
    const response = await encryptResponse(ro.jwt, { vp_token: { pid: [await makeSdJwt()] }, state: claims.state });
    await fetch(claims.response_uri as string, form({ response }));
    expect(await statusOf(json.authorizationId!)).toBe('error');
    const creds = (await (await env.api(`/openid4/vp/v1_0/authorizations/${json.authorizationId}/credentials`)).json()) as { credentials: unknown[] };
    expect(creds.credentials).toEqual([]);
  });

  it('a verifier that skips one of two presentations gives error', async () => {
    env = await startAuthorizer({
      instance: { verifier: { verify: async (input) => [{ path: input.presentations[0]!.path, policy: 'proof', service: 'verifier', data: {} }], verifyIdToken: async () => [] } },
    });
    const dcql = { credentials: [{ ...DCQL_SD_JWT.credentials[0]!, multiple: true }] };
    const { json } = await createDcqlAuthorization(env.api, { query: { type: 'DCQL', dcql } });
    const ro = await fetchRequestObject(json.authorizeUrl!);
    const claims = decodeJwt(ro.jwt);
    const response = await encryptResponse(ro.jwt, { vp_token: { pid: [await makeSdJwt(), await makeSdJwt()] }, state: claims.state });
    await fetch(claims.response_uri as string, form({ response }));
    expect(await statusOf(json.authorizationId!)).toBe('error');
  });
});

describe('key hygiene and ordering', () => {
  it('drops the per-request private key once the authorization is terminal', async () => {
    const store = memoryStore({ sweepIntervalMs: 0 });
    env = await startAuthorizer({ store });
    const { json } = await createDcqlAuthorization(env.api);
    expect((await store.get('main', json.authorizationId!))?.encryptionKey?.privateJwk).toBeDefined();
    const ro = await fetchRequestObject(json.authorizeUrl!);
    const claims = decodeJwt(ro.jwt);
    const response = await encryptResponse(ro.jwt, { vp_token: { pid: [await makeSdJwt()] }, state: claims.state });
    await fetch(claims.response_uri as string, form({ response }));
    const record = await store.get('main', json.authorizationId!);
    expect(record?.status).toBe('authorized');
    expect(record?.encryptionKey).toBeUndefined();
  });

  it('refuses a response before the request object was fetched, changing nothing', async () => {
    env = await startAuthorizer();
    const { json } = await createDcqlAuthorization(env.api, { responseMode: 'direct_post' });
    const id = json.authorizationId!;
    const res = await fetch(`${env.base}/openid4/vp/v1_0/${id}/direct_post`, form({ vp_token: '{"pid":["x~"]}', state: 'guess' }));
    expect(res.status).toBe(400);
    expect(await statusOf(id)).toBe('created');
  });
});

describe('HTTP edges', () => {
  it('405 carries Allow; HEAD is answered like GET without a body; a wallet path answers OAuth-style even on 405', async () => {
    env = await startAuthorizer();
    const res = await env.api('/openid4/vp/v1_0/authorizations');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    const head = await fetch(`${env.base}/health`, { method: 'HEAD' });
    expect(head.status).toBe(204);
    const wallet = await fetch(`${env.base}/openid4/vp/v1_0/some-authorization-id-123/direct_post`);
    expect(wallet.status).toBe(405);
    expect(await wallet.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('a logger that throws cannot turn an answer into a 500', async () => {
    const explode = () => {
      throw new Error('log sink down');
    };
    env = await startAuthorizer({ logger: { debug: explode, info: explode, warn: explode, error: explode } });
    expect((await createDcqlAuthorization(env.api)).res.status).toBe(201);
    expect((await env.api('/nope')).status).toBe(404);
  });

  it('two instances sharing an API key is a configuration error', async () => {
    await expect(startAuthorizer({ instance: { apiKeys: ['test-api-key-other-0001'] } })).rejects.toThrow(/share an API key/);
  });
});
