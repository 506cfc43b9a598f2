/**
 * direct_post.jwt / dc_api.jwt decryption with a real per-request key. JWEs are built by hand
 * (support/jwe.ts) so that header members can be wrong while the cryptography is right: the
 * property is an exact oracle, not just "does not crash": decryption succeeds iff every header
 * rule holds, the structure is intact and the plaintext is a JSON object of sane depth.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthorizerError, type EncryptionKeyRecord } from '@vp-authorizer/core';
import { ENCRYPTED_RESPONSE_ENC_VALUES, generateEncryptionKey } from '../../packages/core/src/request/index.js';
import { decryptAuthorizationResponse } from '../../packages/core/src/response/decrypt-response.js';
import { hostileJson, key } from './__fixtures__/arbitraries.js';
import { RUNS } from './__fixtures__/fuzz-budget.js';
import { fuzzAsync, measureAsync, describeInput, reportTally } from './__fixtures__/fuzz-harness.js';
import { ecdhEsJwe } from './__fixtures__/jwe.js';

afterAll(() => reportTally('jwe'));

const RESERVED = new Set(['alg', 'enc', 'kid', 'zip', 'crit', 'epk', 'apu', 'apv', 'jku', 'jwk', 'x5u', 'x5c', 'x5t', 'x5t#S256', 'p2s', 'p2c', 'iv', 'tag', 'b64']);
const enc = new TextEncoder();

const goodPlaintext = fc.oneof(
  fc.dictionary(key, hostileJson, { maxKeys: 5 }).map((o) => enc.encode(JSON.stringify(o))),
  fc.constant(enc.encode('{"vp_token":{"pid":["x"]},"state":"s","__proto__":{"polluted":1}}')),
  // Exactly at the depth limit: still accepted.
  fc.constant(enc.encode(`${'{"a":'.repeat(63)}1${'}'.repeat(63)}`)),
);
const badPlaintext = fc.oneof(
  fc.integer({ min: 65, max: 5000 }).map((d) => enc.encode(`${'{"a":'.repeat(d)}1${'}'.repeat(d)}`)),
  fc.oneof(hostileJson.filter((v) => v === null || typeof v !== 'object' || Array.isArray(v)).map((v) => JSON.stringify(v) ?? 'x'), fc.constantFrom('', 'not json', '{"a":', '{"a":1}x')).map((t) => enc.encode(t)),
  fc.constantFrom(new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), new Uint8Array([0x7b, 0x7d, 0xed, 0xa0, 0x80])),
  fc.constantFrom('eyJhbGciOiJFUzI1NiJ9.eyJ2cF90b2tlbiI6e319.c2ln', ' eyJhIjoxfQ.eyJiIjoyfQ. ').map((t) => enc.encode(t)),
);

/** Each fault alone must make decryption fail; a JWE without faults must decrypt. */
const FAULTS = [
  'alg', 'algDuplicatedLast', 'enc', 'encMismatch', 'kidWrong', 'kidNumber', 'zip', 'crit',
  'epkMissing', 'epkOffCurve', 'epkP384', 'epkString', 'plaintext',
  'truncate', 'dropPart', 'extraPart', 'flipTag', 'flipCiphertext', 'flipIv', 'flipHeader', 'encryptedKey', 'notString',
] as const;
type Fault = (typeof FAULTS)[number];

const spec = fc.record({
  faults: fc.oneof({ weight: 2, arbitrary: fc.constant([] as Fault[]) }, { weight: 3, arbitrary: fc.subarray([...FAULTS], { minLength: 1, maxLength: 2 }) }),
  badAlg: fc.constantFrom('ECDH-ES+A128KW', 'RSA-OAEP-256', 'none', 'dir', 'ecdh-es', undefined, 5),
  badEnc: fc.constantFrom('A192GCM', 'A128CBC-HS256', '', undefined),
  cipherEnc: fc.constantFrom('A128GCM' as const, 'A256GCM' as const),
  withKid: fc.boolean(),
  /** A leading duplicate "alg":"none" is harmless when the last member is right (last one wins). */
  duplicatedFirst: fc.boolean(),
  apu: fc.option(fc.uint8Array({ maxLength: 8 }).map((b) => Buffer.from(b).toString('base64url')), { nil: undefined }),
  extra: fc.dictionary(key.filter((k) => !RESERVED.has(k)), hostileJson, { maxKeys: 3 }),
  good: goodPlaintext,
  bad: badPlaintext,
});
type Spec = typeof spec extends fc.Arbitrary<infer T> ? T : never;

/** Flip the first base64url character of segment i (the last one may only carry padding bits). */
function flip(compact: string, i: number): string {
  const parts = compact.split('.');
  const s = parts[i];
  // Combined with dropPart the segment may be gone: nothing left to flip, the JWE is broken anyway.
  if (s === undefined) return compact;
  parts[i] = s.length === 0 ? 'AAAA' : (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
  return parts.join('.');
}

function build(recipient: JsonWebKey, ourKid: string, s: Spec): unknown {
  const has = (f: Fault) => s.faults.includes(f);
  const header: Record<string, unknown> = { ...s.extra, alg: has('alg') ? s.badAlg : 'ECDH-ES' };
  if (header.alg === undefined) delete header.alg;
  if (has('enc')) {
    if (s.badEnc !== undefined) header.enc = s.badEnc;
  } else header.enc = has('encMismatch') ? (s.cipherEnc === 'A128GCM' ? 'A256GCM' : 'A128GCM') : s.cipherEnc;
  if (has('kidWrong')) header.kid = `${ourKid}x`;
  else if (has('kidNumber')) header.kid = 5;
  else if (s.withKid) header.kid = ourKid;
  if (has('zip')) header.zip = 'DEF';
  if (has('crit')) header.crit = ['exp'];
  if (s.apu) header.apu = s.apu;
  if (has('epkMissing')) header.epk = null;
  if (has('epkP384')) header.epk = { kty: 'EC', crv: 'P-384', x: 'AA', y: 'AA' };
  if (has('epkString')) header.epk = 'epk';
  const headerText = (h: Record<string, unknown>) => {
    if (has('epkOffCurve')) h.epk = { ...(h.epk as object), y: (h.epk as { x: string }).x };
    let json = JSON.stringify(h);
    // Duplicate members: JSON.parse keeps the last one, as RFC 7515 section 4 allows recipients to.
    if (s.duplicatedFirst) json = `{"alg":"none",${json.slice(1)}`;
    if (has('algDuplicatedLast')) json = `${json.slice(0, -1)}${json.length > 2 ? ',' : ''}"alg":"none"}`;
    return json;
  };
  const compact = ecdhEsJwe(recipient, { header, headerText, cipherEnc: s.cipherEnc, plaintext: has('plaintext') ? s.bad : s.good });
  let out: string = compact;
  if (has('truncate')) out = out.slice(0, -3);
  if (has('dropPart')) out = out.split('.').slice(0, 4).join('.');
  if (has('extraPart')) out = `${out}.AAAA`;
  if (has('flipTag')) out = flip(out, 4);
  if (has('flipCiphertext')) out = flip(out, 3);
  if (has('flipIv')) out = flip(out, 2);
  if (has('flipHeader')) out = flip(out, 0);
  if (has('encryptedKey')) out = out.replace('..', '.AAAA.');
  return has('notString') ? { compact: out } : out;
}

describe('JWE response decryption (decrypt-response)', () => {
  let key1: EncryptionKeyRecord;
  beforeAll(async () => {
    key1 = await generateEncryptionKey();
  });

  it('the hand-built ECDH-ES JWE is accepted as-is (the oracle below relies on it)', async () => {
    const compact = ecdhEsJwe(key1.publicJwk, { header: { alg: 'ECDH-ES', enc: 'A256GCM', kid: key1.kid }, cipherEnc: 'A256GCM', plaintext: enc.encode('{"vp_token":{"a":["b"]},"state":"s"}') });
    const { payload } = await decryptAuthorizationResponse(compact, key1, { allowedEnc: ENCRYPTED_RESPONSE_ENC_VALUES });
    expect(payload).toEqual({ vp_token: { a: ['b'] }, state: 's' });
  });

  it('decrypts exactly the fault-free responses to our key; any wrong alg/enc/kid/zip/epk/crit, trailing duplicate alg, truncation, tampering or bad plaintext is authorization.invalid_jwe', { timeout: 120_000 }, async () => {
    let decrypted = 0;
    await fuzzAsync('jwe', RUNS.jwe, spec, async (s) => {
      const jwe = build(key1.publicJwk, key1.kid, s);
      const { outcome } = await measureAsync('decryptAuthorizationResponse', () => describeInput(jwe), () =>
        decryptAuthorizationResponse(jwe as string, key1, { allowedEnc: ENCRYPTED_RESPONSE_ENC_VALUES }),
      );
      if (outcome.ok) {
        decrypted += 1;
        expect(s.faults, 'decrypted despite faults').toEqual([]);
        expect(JSON.stringify(outcome.value.payload)).toBe(JSON.stringify(JSON.parse(new TextDecoder().decode(s.good))));
      } else {
        expect(outcome.error, String(outcome.error)).toBeInstanceOf(AuthorizerError);
        expect((outcome.error as AuthorizerError).code).toBe('authorization.invalid_jwe');
        expect(s.faults.length, `refused a fault-free JWE: ${(outcome.error as Error).message}`).toBeGreaterThan(0);
        // Never leak plaintext or key material in the message.
        expect((outcome.error as Error).message).not.toContain(String((key1.privateJwk as { d?: string }).d));
      }
    });
    // The oracle must be exercised on both sides.
    expect(decrypted).toBeGreaterThan(20);
  });

  it('valid responses to another authorization\'s key are refused (a response is bound to its own request key)', { timeout: 60_000 }, async () => {
    const other = await generateEncryptionKey();
    await fuzzAsync('jwe-other-key', RUNS.jweValid, fc.tuple(fc.constantFrom('A128GCM' as const, 'A256GCM' as const), fc.boolean()), async ([e, withKid]) => {
      const jwe = ecdhEsJwe(other.publicJwk, { header: { alg: 'ECDH-ES', enc: e, ...(withKid ? { kid: other.kid } : {}) }, cipherEnc: e, plaintext: enc.encode('{"vp_token":{}}') });
      const { outcome } = await measureAsync('decryptAuthorizationResponse', () => 'other key', () => decryptAuthorizationResponse(jwe, key1, { allowedEnc: ENCRYPTED_RESPONSE_ENC_VALUES }));
      expect(outcome.ok).toBe(false);
      expect((outcome as { error: AuthorizerError }).error.code).toBe('authorization.invalid_jwe');
    });
  });
});
