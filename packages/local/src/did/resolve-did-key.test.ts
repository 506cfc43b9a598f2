import { outboundFetchPolicy, type OutboundFetchPolicy } from '@vp-authorizer/core';
import { didMethodsConfigSchema } from '@vp-authorizer/core/internal';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { didJwk, didKey } from '../__fixtures__/did-keys.js';
import { didWebUrl } from './did-web.js';
import { resolveDidKey, type DidResolverOptions } from './resolve-did-key.js';

// No test here may reach a resolver or a network: both are replaced.
const outbound = (overrides: Partial<OutboundFetchPolicy> = {}) =>
  outboundFetchPolicy({ lookup: () => Promise.reject(new Error('no DNS in this test')), fetch: () => Promise.reject(new Error('no network in this test')), ...overrides });
const options = (overrides: Partial<DidResolverOptions> = {}, methods: Record<string, { enabled: boolean }> = {}): DidResolverOptions => ({
  didMethods: v.parse(didMethodsConfigSchema, { methods }),
  outbound: outbound(),
  timeoutMs: 1_000,
  maxBytes: 10_000,
  signal: new AbortController().signal,
  ...overrides,
});

describe('resolveDidKey', () => {
  it('resolves did:jwk (#0)', async () => {
    const holder = await didJwk();
    const resolved = await resolveDidKey({ did: holder.did, kid: holder.kid }, 'authentication', options());
    expect(resolved).toMatchObject({ did: holder.did, keyId: holder.kid, jwk: { kty: 'EC', crv: 'P-256', x: holder.publicJwk.x, y: holder.publicJwk.y } });
    expect(await resolveDidKey({ kid: '#0', did: holder.did }, 'assertionMethod', options())).toMatchObject({ keyId: holder.kid });
  });

  it('resolves did:key with P-256 (zDn…) and Ed25519 (z6Mk…) keys', async () => {
    const p256 = await didKey('p256');
    const ed = await didKey('ed25519');
    expect(p256.did.startsWith('did:key:zDn')).toBe(true);
    expect(ed.did.startsWith('did:key:z6Mk')).toBe(true);
    expect((await resolveDidKey({ did: p256.did }, 'authentication', options())).jwk).toEqual({ kty: 'EC', crv: 'P-256', x: p256.publicJwk.x, y: p256.publicJwk.y });
    expect((await resolveDidKey({ kid: ed.kid }, 'authentication', options())).jwk).toEqual({ kty: 'OKP', crv: 'Ed25519', x: ed.publicJwk.x });
  });

  it('resolves did:web through the injected fetch, with the key named by kid', async () => {
    const key = await didJwk();
    const did = 'did:web:issuer.example%3A8443:tenants:a';
    const doc = { id: did, verificationMethod: [{ id: '#k1', type: 'JsonWebKey2020', controller: did, publicKeyJwk: key.publicJwk }], assertionMethod: ['#k1'] };
    const urls: string[] = [];
    const fetch: typeof globalThis.fetch = async (url) => {
      urls.push(String(url));
      return new Response(JSON.stringify(doc), { headers: { 'content-type': 'application/did+json' } });
    };
    const resolved = await resolveDidKey({ did, kid: `${did}#k1` }, 'assertionMethod', options({ outbound: outbound({ fetch, dangerouslyAllowAnyDestination: true }) }));
    expect(resolved.jwk).toMatchObject({ x: key.publicJwk.x });
    expect(urls).toEqual(['https://issuer.example:8443/tenants/a/did.json']);
    await expect(resolveDidKey({ did, kid: '#k1' }, 'authentication', options({ outbound: outbound({ fetch, dangerouslyAllowAnyDestination: true }) }))).rejects.toMatchObject({ code: 'did.key_not_found' });
    await expect(resolveDidKey({ did, kid: '#k2' }, 'assertionMethod', options({ outbound: outbound({ fetch, dangerouslyAllowAnyDestination: true }) }))).rejects.toMatchObject({ code: 'did.key_not_found' });
  });

  it('maps did:web URLs per the did:web spec', () => {
    expect(didWebUrl('example.com')).toBe('https://example.com/.well-known/did.json');
    expect(didWebUrl('example.com:user:alice')).toBe('https://example.com/user/alice/did.json');
    expect(() => didWebUrl('exa mple.com')).toThrow();
  });

  it('rejects a did:web document with another id and an oversized document', async () => {
    const fetchDoc = (body: string): typeof globalThis.fetch => async () => new Response(body);
    await expect(resolveDidKey({ did: 'did:web:a.example' }, 'authentication', options({ outbound: outbound({ fetch: fetchDoc(JSON.stringify({ id: 'did:web:b.example' })) }) }))).rejects.toMatchObject({ code: 'did.resolution_failed' });
    await expect(resolveDidKey({ did: 'did:web:a.example' }, 'authentication', options({ outbound: outbound({ fetch: fetchDoc('x'.repeat(20_000)) }) }))).rejects.toMatchObject({ code: 'did.resolution_failed' });
  });

  it('rejects did:web on IP literals, localhost and non-443 ports (SSRF), before any fetch', async () => {
    let fetched = 0;
    const fetch: typeof globalThis.fetch = async () => {
      fetched++;
      return new Response('{}');
    };
    for (const id of ['127.0.0.1', '10.0.0.8%3A443', '2130706433', '0x7f.1', 'localhost', 'api.localhost', 'LOCALHOST.', 'issuer.example%3A8443']) {
      await expect(resolveDidKey({ did: `did:web:${id}` }, 'assertionMethod', options({ outbound: outbound({ fetch }) })), id).rejects.toMatchObject({ code: 'did.invalid' });
    }
    expect(fetched).toBe(0);
    expect(didWebUrl('issuer.example%3A443')).toBe('https://issuer.example:443/.well-known/did.json');
    expect(didWebUrl('127.0.0.1%3A8443')).toBe('https://127.0.0.1:8443/.well-known/did.json');
  });

  it('never follows a did:web redirect and reports fetch failures without the HTTP status', async () => {
    const inits: RequestInit[] = [];
    const fetch: typeof globalThis.fetch = async (_url, init) => {
      inits.push(init ?? {});
      return new Response('gone', { status: 503 });
    };
    const failure = await resolveDidKey({ did: 'did:web:a.example' }, 'assertionMethod', options({ outbound: outbound({ fetch }) })).catch((e: unknown) => e);
    expect(inits[0]?.redirect).toBe('manual');
    expect(failure).toMatchObject({ code: 'did.resolution_failed', message: 'The did:web document could not be fetched' });
    expect(String((failure as Error).message)).not.toMatch(/503/);
  });

  it('distinguishes disabled, remote-only and unknown methods', async () => {
    const holder = await didJwk();
    await expect(resolveDidKey({ did: holder.did }, 'authentication', options({}, { jwk: { enabled: false } }))).rejects.toMatchObject({ code: 'did.method_disabled' });
    await expect(resolveDidKey({ did: 'did:ebsi:zabc' }, 'authentication', options())).rejects.toMatchObject({ code: 'did.method_disabled' });
    await expect(resolveDidKey({ did: 'did:ebsi:zabc' }, 'authentication', options({}, { ebsi: { enabled: true } }))).rejects.toMatchObject({ code: 'did.needs_remote_resolver', message: /remote/ });
    await expect(resolveDidKey({ did: 'did:example:123' }, 'authentication', options())).rejects.toMatchObject({ code: 'did.method_unsupported' });
    await expect(resolveDidKey({ did: 'not-a-did' }, 'authentication', options())).rejects.toMatchObject({ code: 'did.invalid' });
  });

  it('refuses a kid that belongs to another DID', async () => {
    const a = await didJwk();
    const b = await didJwk();
    await expect(resolveDidKey({ did: a.did, kid: b.kid }, 'authentication', options())).rejects.toMatchObject({ code: 'did.key_not_found' });
  });
});
