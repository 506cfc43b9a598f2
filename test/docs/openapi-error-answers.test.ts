// The error answers the contract suite rarely reaches (store outage, every 401/404/413/415 of every
// endpoint) must match docs/openapi.json too: each is sent in-process and checked by the suite's validator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ENDPOINTS,
  StoreUnavailableError,
  createAuthorizer,
  memoryStore,
  passThroughValidator,
  passThroughVerifier,
  type Authorizer,
} from '@vp-authorizer/core';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { createResponseValidator } from '@vp-authorizer/testing/contracts';

const KEY = 'openapi-errors-key-0001';
const BASE = 'https://verifier.example';
const validate = createResponseValidator();
const store = memoryStore({ sweepIntervalMs: 0 });
let storeDown = false;
// The same store, except that every call fails while `storeDown` is set.
const flakyStore = new Proxy(store, {
  get(target, name, receiver) {
    const value = Reflect.get(target, name, receiver) as unknown;
    if (typeof value !== 'function') return value;
    return (...args: unknown[]) => {
      if (storeDown) throw new StoreUnavailableError();
      return (value as (...a: unknown[]) => unknown).apply(target, args);
    };
  },
});

let authorizer: Authorizer;
beforeAll(async () => {
  const { signing } = await generateDevSigningKey();
  authorizer = createAuthorizer({
    publicBaseUrl: BASE,
    sweepIntervalMs: 0,
    bodyLimitBytes: 4 * 1024,
    store: flakyStore,
    instances: [{ id: 'main', apiKeys: [KEY], signing, validator: passThroughValidator(), verifier: passThroughVerifier() }],
  });
  await authorizer.ready();
});
afterAll(async () => {
  await authorizer.close();
  store.close();
});

const concrete = (template: string) => template.replace(/\{[^}]+\}/g, 'no-such-authorization');

async function send(method: string, path: string, init: { key?: boolean; type?: string; body?: string } = {}) {
  const headers = new Headers();
  if (init.key) headers.set('authorization', `Bearer ${KEY}`);
  if (init.type) headers.set('content-type', init.type);
  const res = await authorizer.fetch(new Request(`${BASE}${path}`, { method, headers, ...(init.body !== undefined ? { body: init.body } : {}) }));
  const answer = { method, path, status: res.status, contentType: res.headers.get('content-type'), body: await res.text() };
  expect(validate(answer), `${method} ${path}`).toEqual([]);
  return answer.status;
}

const typeOf = (endpoint: (typeof ENDPOINTS)[number]) => endpoint.body?.contentType ?? 'application/json';

describe('error answers match the OpenAPI document', () => {
  it('401 on every RP endpoint without a key', async () => {
    for (const e of ENDPOINTS.filter((e) => e.audience === 'rp')) expect(await send(e.method, concrete(e.path), { type: typeOf(e), body: e.method === 'POST' ? '{}' : undefined }), e.operationId).toBe(401);
  });

  it('404 for an unknown authorization on every endpoint that takes one', async () => {
    for (const e of ENDPOINTS.filter((e) => e.path.includes('{authorizationId}'))) {
      const body = e.body?.contentType === 'application/x-www-form-urlencoded' ? 'response=x&vp_token=x' : '{"origin":"https://rp.example","digitalCredentialGetResponse":{}}';
      expect(await send(e.method, concrete(e.path), { key: true, type: typeOf(e), body: e.method === 'POST' ? body : undefined }), e.operationId).toBe(404);
    }
  });

  it('413 and 415 on every endpoint with a body, in its audience\'s format', async () => {
    for (const e of ENDPOINTS.filter((e) => e.body)) {
      expect(await send(e.method, concrete(e.path), { key: true, type: typeOf(e), body: 'x'.repeat(8 * 1024) }), e.operationId).toBe(413);
      expect(await send(e.method, concrete(e.path), { key: true, type: 'text/plain', body: 'x' }), e.operationId).toBe(415);
    }
  });

  it('400 for malformed bodies', async () => {
    expect(await send('POST', '/openid4/vp/v1_0/authorizations', { key: true, type: 'application/json', body: '{"responseMode":"nope"}' })).toBe(400);
    expect(await send('POST', '/openid4/vp/v1_0/authorizations', { key: true, type: 'application/json', body: '{' })).toBe(400);
    expect(await send('POST', '/openid4/vp/v1_0/response-code/resolve', { key: true, type: 'application/json', body: '{}' })).toBe(400);
  });

  it('404 for an unknown response code and 503 with Retry-After while the store is down', async () => {
    expect(await send('POST', '/openid4/vp/v1_0/response-code/resolve', { key: true, type: 'application/json', body: '{"response_code":"unknown"}' })).toBe(404);
    storeDown = true;
    try {
      for (const e of ENDPOINTS.filter((e) => e.errors?.includes(503))) {
        const body = e.body?.contentType === 'application/x-www-form-urlencoded' ? 'response=x' : e.operationId === 'resolveResponseCode' ? '{"response_code":"c"}' : '{"origin":"https://rp.example","digitalCredentialGetResponse":{}}';
        const status = await send(e.method, concrete(e.path), { key: true, type: typeOf(e), body: e.method === 'POST' ? body : undefined });
        // createAuthorization validates its body before touching the store.
        expect(status, e.operationId).toBe(e.operationId === 'createAuthorization' ? 400 : 503);
      }
    } finally {
      storeDown = false;
    }
  });

  it('404 for unknown paths and 405 for other methods, in the path\'s error format', async () => {
    expect(await send('GET', '/no/such/path')).toBe(404);
    expect(await send('DELETE', '/health')).toBe(405);
    expect(await send('PUT', '/openid4/vp/v1_0/x/direct_post')).toBe(405);
    expect(await send('DELETE', '/openid4/vp/v1_0/authorizations/x/jwt')).toBe(405);
  });
});
