import { CompactEncrypt, SignJWT, exportJWK, generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import type { EncryptionKeyRecord } from '../model/authorization-record.js';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { generateEncryptionKey } from '../request/encryption-key.js';
import { decryptAuthorizationResponse } from './decrypt-response.js';

// OpenID4VP 1.0 section 8.3 example: encrypted to key "ac" with A128GCM.
const SPEC_JWE = [
  'eyJhbGciOiJFQ0RILUVTIiwiZW5jIjoiQTEyOEdDTSIsImtpZCI6ImFjIiwiZXBrIjp7Imt',
  '0eSI6IkVDIiwieCI6Im5ubVZwbTNWM2piaGNhZlFhUkJrU1ZOSGx3Wkh3dC05ck9wSnVmeVlJdWsiLCJ5I',
  'joicjRmakRxd0p5czlxVU9QLV9iM21SNVNaRy0tQ3dPMm1pYzVWU05UWU45ZyIsImNydiI6IlAtMjU2In1',
  '9..uAYcHRUSSn2X0WPX.yVzlGSYG4qbg0bq18JcUiDRw56yVnbKR8E7S7YlEtzT00RqE3Pw5oTpUG3hdLN',
  '4taHZ9gC1kwak8JOnJgQ.1wR024_3-qtAlx1oFIUpQQ',
].join('');
const SPEC_PUBLIC = { kty: 'EC', crv: 'P-256', x: 'YO4epjifD-KWeq1sL2tNmm36BhXnkJ0He-WqMYrp9Fk', y: 'Hekpm0zfK7C-YccH5iBjcIXgf6YdUvNUac_0At55Okk' };
const SPEC_D = 'Et-3ce0omz8_TuZ96Df9lp0GAaaDoUnDe6X-CRO7Aww';
const specKey = (kid = 'ac'): EncryptionKeyRecord => ({
  kid,
  alg: 'ECDH-ES',
  publicJwk: { ...SPEC_PUBLIC, kid, alg: 'ECDH-ES', use: 'enc' },
  privateJwk: { ...SPEC_PUBLIC, d: SPEC_D },
});
const A128 = { allowedEnc: ['A128GCM', 'A256GCM'] } as const;

async function freshKey(kid = 'k1'): Promise<EncryptionKeyRecord> {
  const { publicKey, privateKey } = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
  const publicJwk = await exportJWK(publicKey);
  return { kid, alg: 'ECDH-ES', publicJwk: { ...publicJwk, kid, alg: 'ECDH-ES', use: 'enc' }, privateJwk: await exportJWK(privateKey) };
}

async function encryptTo(key: EncryptionKeyRecord, plaintext: string, header: Record<string, unknown>): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(plaintext))
    .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A128GCM', kid: key.kid, ...header })
    .encrypt({ ...key.publicJwk } as JsonWebKey as never);
}

/** Re-encodes the protected header (the JWE then no longer authenticates, which is the point for order-of-checks tests). */
function withHeader(jwe: string, patch: Record<string, unknown>): string {
  const parts = jwe.split('.');
  const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as Record<string, unknown>;
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete header[k];
    else header[k] = v;
  }
  parts[0] = Buffer.from(JSON.stringify(header)).toString('base64url');
  return parts.join('.');
}

async function expectInvalid(promise: Promise<unknown>, message?: RegExp): Promise<AuthorizerError> {
  const error = await promise.then(
    () => expect.unreachable('expected a rejection'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthorizerError);
  expect((error as AuthorizerError).code).toBe('authorization.invalid_jwe');
  expect((error as AuthorizerError).status).toBe(400);
  if (message) expect((error as AuthorizerError).message).toMatch(message);
  return error as AuthorizerError;
}

describe('decryptAuthorizationResponse', () => {
  it('decrypts the OpenID4VP 1.0 section 8.3 example to the stated payload', async () => {
    const { payload, header } = await decryptAuthorizationResponse(SPEC_JWE, specKey(), A128);
    expect(payload).toEqual({ vp_token: { example_credential_id: ['eyJhb...YMetA'] } });
    expect(header).toMatchObject({ alg: 'ECDH-ES', enc: 'A128GCM', kid: 'ac' });
  });

  it('rejects the example when A128GCM is not an allowed enc', async () => {
    await expectInvalid(decryptAuthorizationResponse(SPEC_JWE, specKey(), { allowedEnc: ['A256GCM'] }), /enc/);
  });

  it('rejects the example when the kid is not ours', async () => {
    await expectInvalid(decryptAuthorizationResponse(SPEC_JWE, specKey('other'), A128), /kid/);
  });

  it('rejects a tampered protected header (AAD changes, tag fails)', async () => {
    await expectInvalid(decryptAuthorizationResponse(withHeader(SPEC_JWE, { extra: 'x' }), specKey(), A128), /could not be decrypted/);
  });

  it('rejects a header with another alg', async () => {
    await expectInvalid(decryptAuthorizationResponse(withHeader(SPEC_JWE, { alg: 'ECDH-ES+A128KW' }), specKey(), A128), /alg/);
    await expectInvalid(decryptAuthorizationResponse(withHeader(SPEC_JWE, { alg: 'dir' }), specKey(), A128), /alg/);
  });

  it('rejects a header whose enc is changed to another allowed value', async () => {
    await expectInvalid(decryptAuthorizationResponse(withHeader(SPEC_JWE, { enc: 'A256GCM' }), specKey(), A128), /could not be decrypted/);
  });

  it('rejects a tampered ciphertext or tag', async () => {
    const parts = SPEC_JWE.split('.');
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    await expectInvalid(decryptAuthorizationResponse([parts[0], parts[1], parts[2], flip(parts[3]!), parts[4]].join('.'), specKey(), A128));
    await expectInvalid(decryptAuthorizationResponse([parts[0], parts[1], parts[2], parts[3], flip(parts[4]!)].join('.'), specKey(), A128));
  });

  it('rejects the example with the wrong private key', async () => {
    const other = await freshKey('ac');
    await expectInvalid(decryptAuthorizationResponse(SPEC_JWE, other, A128), /could not be decrypted/);
  });

  it.each(['', 'a.b.c', 'a.b.c.d.e.f', 'not a jwe'])('rejects non-JWE input %j', async (input) => {
    await expectInvalid(decryptAuthorizationResponse(input, specKey(), A128));
  });

  it('rejects a 5-part string whose header is not JSON', async () => {
    await expectInvalid(decryptAuthorizationResponse('bm90LWpzb24.a.b.c.d', specKey(), A128), /header/);
  });

  it.each(['A128GCM', 'A256GCM'])('round-trips a jose ECDH-ES + %s JWE', async (enc) => {
    const key = await freshKey();
    const body = { vp_token: { pid: ['abc~def~'] }, state: 's-1' };
    const jwe = await encryptTo(key, JSON.stringify(body), { enc });
    const { payload, header } = await decryptAuthorizationResponse(jwe, key, A128);
    expect(payload).toEqual(body);
    expect(header.enc).toBe(enc);
  });

  it('accepts apv without apu (as @openid4vc wallets send) and apu/apv both absent', async () => {
    const key = await freshKey();
    const apv = Buffer.from('nonce-123').toString('base64url');
    const a = await encryptTo(key, '{"vp_token":{}}', { apv });
    expect((await decryptAuthorizationResponse(a, key, A128)).header.apv).toBe(apv);
    const b = await encryptTo(key, '{"vp_token":{}}', { apu: Buffer.from('x').toString('base64url'), apv });
    expect((await decryptAuthorizationResponse(b, key, A128)).payload).toEqual({ vp_token: {} });
  });

  it('accepts a JWE without kid (one key per authorization)', async () => {
    const key = await freshKey();
    const jwe = await encryptTo(key, '{"vp_token":{}}', { kid: undefined });
    expect(JSON.parse(Buffer.from(jwe.split('.')[0]!, 'base64url').toString()).kid).toBeUndefined();
    expect((await decryptAuthorizationResponse(jwe, key, A128)).payload).toEqual({ vp_token: {} });
  });

  it('rejects A256GCM when only A128GCM is advertised', async () => {
    const key = await freshKey();
    const jwe = await encryptTo(key, '{"vp_token":{}}', { enc: 'A256GCM' });
    await expectInvalid(decryptAuthorizationResponse(jwe, key, { allowedEnc: ['A128GCM'] }), /enc/);
  });

  it('rejects a signed JWT inside the JWE and does not leak it in the message', async () => {
    const key = await freshKey();
    const { privateKey } = await generateKeyPair('ES256');
    const jws = await new SignJWT({ vp_token: { pid: ['secret-token-value'] } }).setProtectedHeader({ alg: 'ES256' }).sign(privateKey);
    const jwe = await encryptTo(key, jws, { cty: 'JWT' });
    const error = await expectInvalid(decryptAuthorizationResponse(jwe, key, A128), /signed/);
    expect(error.message).not.toContain('secret-token-value');
    expect(error.message).not.toContain(jws.slice(0, 20));
  });

  it.each([
    ['a JSON array', '[1,2]'],
    ['a JSON string', '"x"'],
    ['null', 'null'],
    ['not JSON', 'vp_token=abc'],
  ])('rejects a plaintext that is %s', async (_label, plaintext) => {
    const key = await freshKey();
    const jwe = await encryptTo(key, plaintext, {});
    const error = await expectInvalid(decryptAuthorizationResponse(jwe, key, A128), /JSON/);
    expect(error.message).not.toContain(plaintext);
  });

  it('never puts key material into messages', async () => {
    const error = await expectInvalid(decryptAuthorizationResponse(SPEC_JWE, { ...specKey(), privateJwk: { ...SPEC_PUBLIC, d: 'AAAA' } }, A128));
    expect(error.message).not.toContain('AAAA');
    expect(error.message).not.toContain(SPEC_D);
  });
  it('decrypts with a generated key whether this process still holds it as a KeyObject or imports it from the record', async () => {
    const key = await generateEncryptionKey();
    const first = await encryptTo(key, '{"vp_token":{"a":[1]}}', {});
    expect((await decryptAuthorizationResponse(first, key, A128)).payload).toEqual({ vp_token: { a: [1] } });
    // The remembered KeyObject was used once and dropped: this one is imported from the stored JWK (with kid, alg, use).
    const second = await encryptTo(key, '{"vp_token":{"a":[2]}}', {});
    expect((await decryptAuthorizationResponse(second, key, A128)).payload).toEqual({ vp_token: { a: [2] } });
  });

  it('uses the stored record, not the key remembered in process, when the two differ', async () => {
    const remembered = await generateEncryptionKey();
    const stored = await freshKey(remembered.kid);
    // The in-process KeyObject (same kid) would decrypt this; the stored record's key must not.
    const toRemembered = await encryptTo(remembered, '{"vp_token":{}}', {});
    await expectInvalid(decryptAuthorizationResponse(toRemembered, stored, A128));
    const toStored = await encryptTo(stored, '{"vp_token":{}}', {});
    expect((await decryptAuthorizationResponse(toStored, stored, A128)).payload).toEqual({ vp_token: {} });
  });
});
