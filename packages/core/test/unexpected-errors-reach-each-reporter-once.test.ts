// Who hears an unexpected error is decided in one place (the authorizer's report): the configured
// onError and a per-call one, each once, and once only when they are the same function — through
// handle(), fetch() and serve() alike.
import { afterEach, describe, expect, it } from 'vitest';
import { createAuthorizer, memoryStore, passThroughValidator, passThroughVerifier, type Authorizer } from '@vp-authorizer/core';
import { fromFetchRequest, serve } from '@vp-authorizer/core/http';
import { API_KEY, devSigning } from './__fixtures__/test-authorizer.js';

const bug = new Error('store bug');
let authorizer: Authorizer | undefined;
afterEach(() => authorizer?.close());

async function failingAuthorizer(onError: (error: unknown) => void): Promise<Authorizer> {
  const store = memoryStore({ sweepIntervalMs: 0 });
  authorizer = createAuthorizer({
    publicBaseUrl: 'https://verifier.example/authz',
    basePath: '/authz',
    sweepIntervalMs: 0,
    store: Object.assign(Object.create(store) as typeof store, { create: async () => Promise.reject(bug) }),
    onError,
    instances: [{ id: 'main', apiKeys: [API_KEY], signing: (await devSigning()).signing, validator: passThroughValidator(), verifier: passThroughVerifier() }],
  });
  return authorizer;
}

const create = () =>
  new Request('https://verifier.example/authz/openid4/vp/v1_0/authorizations', {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ responseMode: 'direct_post', query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] } }] } } }),
  });

describe('an unexpected error reaches each reporter once', () => {
  it('through fetch(): the configured hook once, a different per-call hook once, the same hook passed again still once', async () => {
    const configured: unknown[] = [];
    const hook = (error: unknown) => void configured.push(error);
    const auth = await failingAuthorizer(hook);
    const perCall: unknown[] = [];
    expect((await auth.fetch(create(), { onError: (error) => void perCall.push(error) })).status).toBe(500);
    expect(configured).toEqual([bug]);
    expect(perCall).toEqual([bug]);
    expect((await auth.fetch(create(), { onError: hook })).status).toBe(500);
    expect(configured).toEqual([bug, bug]);
  });

  it('through serve() as adapters call it: the configured hook once, the failure handed to the host, the per-call hook once', async () => {
    const configured: unknown[] = [];
    const auth = await failingAuthorizer((error) => void configured.push(error));
    const perCall: unknown[] = [];
    const served = await serve(auth, fromFetchRequest(create(), { basePath: '/authz' }), { onError: (error) => void perCall.push(error) });
    expect(served.response.status).toBe(500);
    expect(served.failure).toEqual({ error: bug });
    expect(configured).toEqual([bug]);
    expect(perCall).toEqual([bug]);
  });

  it('through handle() given the configured hook as the per-call one: once', async () => {
    const configured: unknown[] = [];
    const hook = (error: unknown) => void configured.push(error);
    const auth = await failingAuthorizer(hook);
    const request = create();
    const core = { method: 'POST', path: '/openid4/vp/v1_0/authorizations', query: new URLSearchParams(), headers: request.headers, body: { kind: 'bytes' as const, bytes: new Uint8Array(await request.arrayBuffer()) } };
    expect((await auth.handle(core, { onError: hook })).status).toBe(500);
    expect(configured).toEqual([bug]);
  });
});
