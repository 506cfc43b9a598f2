import { createPublicKey, createSign, createVerify, ECDH, generateKeyPairSync } from 'node:crypto';
import { DID_METHODS, type DidMethodsConfigInput, outboundFetchPolicy } from '@vp-authorizer/core';
import { didMethodsConfigSchema } from '@vp-authorizer/core/internal';
import { exportJWK } from 'jose';
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { base58btcEncode } from '../__fixtures__/did-keys.js';
import { startUniversalResolver, type UniversalResolverServer } from '../__fixtures__/universal-resolver-server.js';
import { httpDidResolver, type HttpDidResolverOptions } from './http-did-resolver.js';
import { resolveDidKey } from './resolve-did-key.js';
import { verificationMethodJwk } from './public-key-encoding.js';

let server: UniversalResolverServer;
beforeAll(async () => {
  server = await startUniversalResolver();
});
afterAll(async () => server.close());
beforeEach(() => void server.requests.splice(0));

// The resolver runs on loopback: the policy's documented escape hatch, as in every loopback test.
const loopback = outboundFetchPolicy({ dangerouslyAllowAnyDestination: true });
const ALL_ON = { methods: { ethr: { enabled: true }, ebsi: { enabled: true }, cheqd: { enabled: true }, pkh: { enabled: true }, plc: { enabled: true } } };
const config = (input: DidMethodsConfigInput = ALL_ON) => v.parse(didMethodsConfigSchema, input);
const resolver = (overrides: Partial<HttpDidResolverOptions> = {}) => httpDidResolver({ url: server.url, timeoutMs: 1_000, ...overrides });
const resolve = (did: string, r = resolver(), didMethods = config()) => r.resolve(did, { didMethods, outbound: loopback });
const failure = (promise: Promise<unknown>) => promise.then(() => { throw new Error('expected a failure'); }, (e: unknown) => e as Error & { code: string });

const doc = (did: string, vm: Record<string, unknown> = {}) => ({ '@context': ['https://www.w3.org/ns/did/v1'], id: did, verificationMethod: [{ id: `${did}#key-1`, type: 'JsonWebKey2020', controller: did, ...vm }], assertionMethod: [`${did}#key-1`], authentication: [`${did}#key-1`] });
const ed25519Jwk = async () => exportJWK(generateKeyPairSync('ed25519').publicKey);

describe('httpDidResolver (DIF Universal Resolver HTTP API)', () => {
  it('reads a bare DID document from GET {url}/1.0/identifiers/{did}, with the configured Accept', async () => {
    const did = 'did:cheqd:testnet:55dbc8bf-fba3-4117-855c-1e0dc1d3bb47';
    server.set(did, { document: doc(did, { publicKeyJwk: await ed25519Jwk() }) });
    expect((await resolve(did, resolver(), config({ ...ALL_ON, response: { contentType: 'application/did+ld+json' } }))).id).toBe(did);
    expect(server.requests).toEqual([{ did, query: '', accept: expect.stringMatching(/^application\/did\+ld\+json,/) }]);
  });

  it('reads the document out of a DID resolution result', async () => {
    const did = 'did:plc:ewvi7nxzyoun6zhxrhs64oiz';
    server.set(did, { document: doc(did, { publicKeyJwk: await ed25519Jwk() }), asResolutionResult: true });
    expect((await resolve(did)).verificationMethod?.[0]?.id).toBe(`${did}#key-1`);
    expect(server.requests[0]?.accept).toMatch(/^application\/did\+json,/);
  });

  it('a 404 (notFound) is did.not_found; a 200 resolution result with notFound is too', async () => {
    expect(await failure(resolve('did:ethr:0x1:0xunknown'))).toMatchObject({ code: 'did.not_found' });
    server.set('did:pkh:eip155:1:0xab', { raw: JSON.stringify({ didDocument: null, didResolutionMetadata: { error: 'notFound' } }) });
    expect(await failure(resolve('did:pkh:eip155:1:0xab'))).toMatchObject({ code: 'did.not_found' });
  });

  it('a disabled method is did.method_disabled and makes no request', async () => {
    expect(await failure(resolve('did:ion:EiClkZMDxPKqC9c', resolver(), config()))).toMatchObject({ code: 'did.method_disabled' });
    expect(await failure(resolve('did:ethr:0x1', resolver(), config({ methods: { ethr: { enabled: false } } })))).toMatchObject({ code: 'did.method_disabled' });
    expect(server.requests).toEqual([]);
  });

  it.each([
    ['a 500', { status: 500, body: 'internal secret stack trace' }, /error status/],
    ['a redirect', { redirect: 'http://127.0.0.1:1/elsewhere' }, /redirect/],
    ['an oversized answer', { raw: JSON.stringify({ id: 'did:ethr:0xbig', pad: 'x'.repeat(5_000) }) }, /larger than the size limit/],
    ['no answer in time', { hang: true as const }, /time limit/],
  ] as const)('%s is did.resolution_failed and the message does not echo the body', async (_name, answer, message) => {
    const did = 'did:ethr:0xbig';
    server.set(did, answer);
    const error = await failure(resolve(did, resolver({ maxBytes: 2_000, timeoutMs: 300 })));
    expect(error).toMatchObject({ code: 'did.resolution_failed', message: expect.stringMatching(message) });
    expect(error.message).not.toMatch(/secret|pad|elsewhere/);
  });

  it.each([
    ['not JSON', 'not json at all'],
    ['a JSON array', '[1]'],
    ['a document of another DID', JSON.stringify({ id: 'did:ethr:0xother' })],
    ['a verificationMethod that is not an array', JSON.stringify({ id: 'did:ethr:0xmal', verificationMethod: {} })],
    ['a resolution result with an error', JSON.stringify({ didDocument: null, didResolutionMetadata: { error: 'internalError', message: 'secret' } })],
    ['a deactivated DID', JSON.stringify({ didDocument: { id: 'did:ethr:0xmal' }, didResolutionMetadata: {}, didDocumentMetadata: { deactivated: true } })],
  ])('a malformed answer (%s) is did.resolution_failed', async (_name, raw) => {
    server.set('did:ethr:0xmal', { raw });
    const error = await failure(resolve('did:ethr:0xmal'));
    expect(error).toMatchObject({ code: 'did.resolution_failed' });
    expect(error.message).not.toContain('secret');
  });

  it('passes the EBSI registry environment as ?environment=, or uses the per-environment URL', async () => {
    const did = 'did:ebsi:zvHWX359A3CvfJnCYaAiAde';
    server.set(did, { document: doc(did, { publicKeyJwk: await ed25519Jwk() }) });
    const conformance = config({ methods: { ebsi: { enabled: true, registry: { environment: 'conformance.v5' } } } });
    await resolve(did, resolver(), conformance);
    expect(server.requests[0]?.query).toBe('?environment=conformance.v5');
    await resolve(did, resolver({ ebsiEnvironmentUrls: { 'conformance.v5': `${server.url}/` } }), conformance);
    expect(server.requests[1]?.query).toBe('');
    // The environment is only sent for did:ebsi.
    server.set('did:ethr:0x2', { document: doc('did:ethr:0x2', { publicKeyJwk: await ed25519Jwk() }) });
    await resolve('did:ethr:0x2', resolver(), config({ methods: { ethr: { enabled: true }, ebsi: { enabled: true, registry: { environment: 'pilot.v5' } } } }));
    expect(server.requests[2]?.query).toBe('');
  });

  it('refuses a loopback resolver under the strict outbound policy, before any request', async () => {
    const did = 'did:ethr:0x3';
    server.set(did, { document: doc(did, { publicKeyJwk: await ed25519Jwk() }) });
    expect(await failure(resolver().resolve(did, { didMethods: config() }))).toMatchObject({ code: 'did.resolution_failed', message: /not a public https host/ });
    expect(server.requests).toEqual([]);
  });

  it('serves a second resolution of the same DID from the cache and asks again after the TTL', async () => {
    let now = 1_000_000;
    const did = 'did:cheqd:mainnet:zF7rhDBfUt9d1gJPjx7s1J';
    server.set(did, { document: doc(did, { publicKeyJwk: await ed25519Jwk() }) });
    const cached = resolver({ cacheTtlMs: 60_000, clock: { now: () => now } });
    await resolve(did, cached);
    await resolve(`${did}#key-1`, cached);
    expect(server.requests).toHaveLength(1);
    now += 60_001;
    await resolve(did, cached);
    expect(server.requests).toHaveLength(2);
  });

  it('keeps at most cacheMaxEntries documents, dropping the least recently used', async () => {
    for (const id of ['0xa', '0xb', '0xc']) server.set(`did:ethr:${id}`, { document: doc(`did:ethr:${id}`, { publicKeyJwk: await ed25519Jwk() }) });
    const small = resolver({ cacheMaxEntries: 2 });
    await resolve('did:ethr:0xa', small);
    await resolve('did:ethr:0xb', small);
    await resolve('did:ethr:0xa', small); // a is now the most recent
    await resolve('did:ethr:0xc', small); // evicts b
    expect(server.requests.map((r) => r.did)).toEqual(['did:ethr:0xa', 'did:ethr:0xb', 'did:ethr:0xc']);
    await resolve('did:ethr:0xa', small);
    await resolve('did:ethr:0xb', small);
    expect(server.requests.map((r) => r.did)).toEqual(['did:ethr:0xa', 'did:ethr:0xb', 'did:ethr:0xc', 'did:ethr:0xb']);
  });

  it('does not cache failures', async () => {
    await failure(resolve('did:ethr:0xmissing'));
    await failure(resolve('did:ethr:0xmissing'));
    expect(server.requests).toHaveLength(2);
  });

  it('refuses invalid options with a ConfigError', () => {
    expect(() => httpDidResolver({ url: 'ftp://resolver.example' })).toThrow(/Invalid httpDidResolver options/);
    expect(() => httpDidResolver({ url: 'https://resolver.example', timeoutMs: 0 })).toThrow(/Invalid httpDidResolver options/);
  });
});

describe('public key encodings of resolved verification methods', () => {
  const compressed = (jwk: { x?: string; y?: string }, curve: string) =>
    ECDH.convertKey(Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]), curve, undefined, undefined, 'compressed') as Buffer;

  it('converts publicKeyBase58 Ed25519 keys (Ed25519VerificationKey2018) to an OKP JWK', async () => {
    const jwk = await ed25519Jwk();
    const converted = verificationMethodJwk({ id: '#k', type: 'Ed25519VerificationKey2018', publicKeyBase58: base58btcEncode(Buffer.from(jwk.x!, 'base64url')) });
    expect(converted).toEqual({ kty: 'OKP', crv: 'Ed25519', x: jwk.x });
  });

  it('converts a secp256k1 key from publicKeyBase58 and from publicKeyMultibase to a JWK node:crypto verifies ES256K signatures with', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
    const jwk = await exportJWK(publicKey);
    const point = compressed(jwk, 'secp256k1');
    const fromBase58 = verificationMethodJwk({ id: '#k', type: 'EcdsaSecp256k1VerificationKey2019', publicKeyBase58: base58btcEncode(point) });
    const fromMultibase = verificationMethodJwk({ id: '#k', type: 'Multikey', publicKeyMultibase: `z${base58btcEncode(Buffer.concat([Buffer.from([0xe7, 0x01]), point]))}` });
    expect(fromBase58).toEqual({ kty: 'EC', crv: 'secp256k1', x: jwk.x, y: jwk.y });
    expect(fromMultibase).toEqual(fromBase58);
    const signature = createSign('sha256').update('payload').sign({ key: privateKey, dsaEncoding: 'ieee-p1363' });
    expect(createVerify('sha256').update('payload').verify({ key: createPublicKey({ key: fromBase58 as import('node:crypto').JsonWebKey, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }, signature)).toBe(true);
  });

  it('converts an uncompressed P-256 publicKeyBase58 (EcdsaSecp256r1VerificationKey2019)', async () => {
    const jwk = await exportJWK(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey);
    const raw = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
    expect(verificationMethodJwk({ id: '#k', type: 'EcdsaSecp256r1VerificationKey2019', publicKeyBase58: base58btcEncode(raw) })).toEqual({ kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y });
  });

  it('refuses a 33-byte publicKeyBase58 whose type does not name the curve, and a method with only a blockchain account', () => {
    expect(() => verificationMethodJwk({ id: '#k', type: 'JsonWebKey2020', publicKeyBase58: base58btcEncode(new Uint8Array(33).fill(2)) })).toThrow(expect.objectContaining({ code: 'did.key_not_found' }));
    expect(() => verificationMethodJwk({ id: '#k', type: 'EcdsaSecp256k1RecoveryMethod2020', blockchainAccountId: 'eip155:1:0xab' })).toThrow(expect.objectContaining({ code: 'did.key_not_found' }));
  });

  it('takes the preferred encoding when a method carries several', async () => {
    const a = await ed25519Jwk();
    const b = await ed25519Jwk();
    const vm = { id: '#k', type: 'Ed25519VerificationKey2018', publicKeyJwk: a, publicKeyBase58: base58btcEncode(Buffer.from(b.x!, 'base64url')) };
    expect(verificationMethodJwk(vm, 'publicKeyJwk').x).toBe(a.x);
    expect(verificationMethodJwk(vm, 'publicKeyBase58').x).toBe(b.x);
  });

  it('resolveDidKey sends enabled non-built-in methods to the resolver and honours preferredPublicKeyEncoding', async () => {
    const jwk = await ed25519Jwk();
    const did = 'did:pkh:eip155:1:0xb9c5714089478a327f09197987f16f9e5d936e8a';
    server.set(did, { document: doc(did, { type: 'Ed25519VerificationKey2018', publicKeyBase58: base58btcEncode(Buffer.from(jwk.x!, 'base64url')) }) });
    const options = { didMethods: config({ ...ALL_ON, response: { preferredPublicKeyEncoding: 'publicKeyBase58' } }), outbound: loopback, timeoutMs: 1_000, maxBytes: 10_000, signal: new AbortController().signal, resolver: resolver() };
    expect(await resolveDidKey({ did, kid: `${did}#key-1` }, 'assertionMethod', options)).toEqual({ did, keyId: `${did}#key-1`, jwk: { kty: 'OKP', crv: 'Ed25519', x: jwk.x } });
    // Built-in methods never reach the resolver.
    await expect(resolveDidKey({ did: 'did:web:example.com' }, 'assertionMethod', { ...options, outbound: outboundFetchPolicy({ fetch: async () => new Response('{}', { status: 404 }) }) })).rejects.toMatchObject({ code: 'did.resolution_failed', message: /did:web/ });
    expect(server.requests.map((r) => r.did)).toEqual([did]);
  });

  it('with a resolver configured, every one of the fourteen seed methods resolves when enabled (jwk, key and web locally, the rest remotely)', async () => {
    const { didJwk, didKey } = await import('../__fixtures__/did-keys.js');
    const jwk = await ed25519Jwk();
    const local = { jwk: (await didJwk()).did, key: (await didKey('ed25519')).did } as Record<string, string>;
    const webDid = 'did:web:issuer.example';
    const webFetch: typeof fetch = async () => new Response(JSON.stringify(doc(webDid, { publicKeyJwk: jwk })));
    const methods = Object.fromEntries(DID_METHODS.map((m) => [m, { enabled: true }]));
    for (const method of DID_METHODS) {
      const did = local[method] ?? (method === 'web' ? webDid : `did:${method}:abc123`);
      if (!(method in local) && method !== 'web') server.set(did, { document: doc(did, { publicKeyJwk: jwk }) });
      const outbound = method === 'web' ? outboundFetchPolicy({ fetch: webFetch }) : loopback;
      const resolved = await resolveDidKey({ did }, 'assertionMethod', { didMethods: config({ methods }), outbound, timeoutMs: 1_000, maxBytes: 10_000, signal: new AbortController().signal, resolver: resolver() });
      expect(resolved.did, method).toBe(did);
    }
    expect(server.requests.map((r) => r.did.split(':')[1])).toEqual(DID_METHODS.filter((m) => !['jwk', 'key', 'web'].includes(m)));
  });
});
