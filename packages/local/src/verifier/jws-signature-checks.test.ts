import { generateKeyPairSync, sign } from 'node:crypto';
import { CompactSign, importJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { PolicyFailure } from './policy-failure.js';
import { jwsHeader, tryDecodePayload, verifyJws } from './jws.js';

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const p256 = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });

/** A compact JWS over `header`.`payload` signed with node:crypto (any header, any key). */
function jws(header: Record<string, unknown>, payload: unknown, key: import('node:crypto').KeyObject, hash: string | null = 'sha256'): string {
  const input = `${b64(header)}.${b64(payload)}`;
  const signature = hash === null ? sign(null, Buffer.from(input), key) : sign(hash, Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

async function failure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(PolicyFailure);
  return (error as PolicyFailure).detail ?? '';
}

describe('verifyJws (node:crypto)', () => {
  it('verifies what jose signs, for ES256, ES384 and EdDSA', async () => {
    for (const [alg, pair] of [
      ['ES256', p256()],
      ['ES384', generateKeyPairSync('ec', { namedCurve: 'P-384' })],
      ['EdDSA', generateKeyPairSync('ed25519')],
    ] as const) {
      const compact = await new CompactSign(new TextEncoder().encode('{"a":1}')).setProtectedHeader({ alg }).sign(await importJWK(pair.privateKey.export({ format: 'jwk' }) as never, alg));
      expect(await verifyJws(compact, pair.publicKey, alg, 'proof.signature_invalid', 'test')).toEqual({ a: 1 });
    }
  });

  it('refuses a header alg other than the one expected, and a key that does not fit the alg', async () => {
    const { privateKey, publicKey } = p256();
    const es256 = jws({ alg: 'ES256' }, { a: 1 }, privateKey);
    expect(await failure(verifyJws(es256, publicKey, 'ES384', 'proof.signature_invalid', 'test'))).toMatch(/signature/);
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    const es256WithP384 = jws({ alg: 'ES256' }, { a: 1 }, p384.privateKey);
    await failure(verifyJws(es256WithP384, p384.publicKey, 'ES256', 'proof.signature_invalid', 'test'));
    const ed = generateKeyPairSync('ed25519');
    await failure(verifyJws(jws({ alg: 'ES256' }, { a: 1 }, privateKey), ed.publicKey, 'ES256', 'proof.signature_invalid', 'test'));
  });

  it('refuses any crit header, a DER-encoded ECDSA signature and a tampered payload', async () => {
    const { privateKey, publicKey } = p256();
    await failure(verifyJws(jws({ alg: 'ES256', crit: ['b64'], b64: false }, { a: 1 }, privateKey), publicKey, 'ES256', 'proof.signature_invalid', 'test'));
    const input = `${b64({ alg: 'ES256' })}.${b64({ a: 1 })}`;
    const der = sign('sha256', Buffer.from(input), privateKey).toString('base64url');
    await failure(verifyJws(`${input}.${der}`, publicKey, 'ES256', 'proof.signature_invalid', 'test'));
    const good = jws({ alg: 'ES256' }, { a: 1 }, privateKey).split('.');
    await failure(verifyJws([good[0], b64({ a: 2 }), good[2]].join('.'), publicKey, 'ES256', 'proof.signature_invalid', 'test'));
    await failure(verifyJws(`${good.join('.')}.x`, publicKey, 'ES256', 'proof.signature_invalid', 'test'));
  });

  it('refuses a payload that is not a JSON object', async () => {
    const { privateKey, publicKey } = p256();
    expect(await failure(verifyJws(jws({ alg: 'ES256' }, [1], privateKey), publicKey, 'ES256', 'proof.signature_invalid', 'test'))).toMatch(/not a JSON object/);
  });

  it('checks the signature, alg and crit the same when the caller hands over the header and payload it decoded', async () => {
    const { privateKey, publicKey } = p256();
    const good = jws({ alg: 'ES256' }, { a: 1 }, privateKey);
    const decoded = { header: jwsHeader(good, 'format.malformed'), payload: tryDecodePayload(good) };
    expect(await verifyJws(good, publicKey, 'ES256', 'proof.signature_invalid', 'test', decoded)).toEqual({ a: 1 });
    const [h, , sig] = good.split('.');
    const tampered = [h, b64({ a: 2 }), sig].join('.');
    await failure(verifyJws(tampered, publicKey, 'ES256', 'proof.signature_invalid', 'test', { header: jwsHeader(tampered, 'format.malformed'), payload: tryDecodePayload(tampered) }));
    const withCrit = jws({ alg: 'ES256', crit: ['exp'], exp: 1 }, { a: 1 }, privateKey);
    await failure(verifyJws(withCrit, publicKey, 'ES256', 'proof.signature_invalid', 'test', { header: jwsHeader(withCrit, 'format.malformed') }));
    await failure(verifyJws(good, publicKey, 'ES384', 'proof.signature_invalid', 'test', decoded));
  });

  it('decodes headers and payloads strictly: base64url without padding or stray characters, UTF-8, a JSON object', () => {
    const { privateKey } = p256();
    const [, p, sig] = jws({ alg: 'ES256' }, { a: 1 }, privateKey).split('.');
    expect(() => jwsHeader(`${b64({ alg: 'ES256' })}=.${p}.${sig}`, 'format.malformed')).toThrow(PolicyFailure);
    expect(() => jwsHeader(`${b64([1])}.${p}.${sig}`, 'format.malformed')).toThrow(PolicyFailure);
    expect(() => jwsHeader(`${Buffer.from([0xff, 0xfe]).toString('base64url')}.${p}.${sig}`, 'format.malformed')).toThrow(PolicyFailure);
    expect(tryDecodePayload(`${b64({ alg: 'ES256' })}.${b64('[1]')}.${sig}`)).toBeUndefined();
    expect(tryDecodePayload(`${b64({ alg: 'ES256' })}.${p}.${sig}`)).toEqual({ a: 1 });
  });
});
