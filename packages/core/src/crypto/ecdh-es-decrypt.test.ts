import { createCipheriv, createECDH, createPrivateKey, diffieHellman, generateKeyPairSync, randomBytes } from 'node:crypto';
import { CompactEncrypt, importJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { concatKdf, decryptEcdhEs } from './ecdh-es-decrypt.js';

const recipient = () => {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { publicKey, privateKey: privateKey.export({ format: 'jwk' }) };
};
const headerOf = (jwe: string) => JSON.parse(Buffer.from(jwe.split('.')[0]!, 'base64url').toString('utf8')) as Record<string, unknown>;

async function encrypt(publicJwk: JsonWebKey, header: Record<string, unknown>, plaintext = '{"vp_token":{}}'): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(plaintext))
    .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A128GCM', ...header })
    .encrypt(await importJWK(publicJwk as never, 'ECDH-ES'));
}

/** Replaces the protected header's members; the JWE stays otherwise as jose produced it. */
function reheader(jwe: string, patch: Record<string, unknown>): [string, Record<string, unknown>] {
  const parts = jwe.split('.');
  const header = { ...headerOf(jwe), ...patch };
  parts[0] = Buffer.from(JSON.stringify(header)).toString('base64url');
  return [parts.join('.'), header];
}

describe('ECDH-ES direct key agreement with node:crypto', () => {
  it.each([
    ['A128GCM', {}],
    ['A256GCM', {}],
    ['A128GCM', { apu: Buffer.from('wallet').toString('base64url'), apv: Buffer.from('nonce').toString('base64url') }],
  ])('decrypts what jose encrypts (%s, %j)', async (enc, extra) => {
    const { publicKey, privateKey } = recipient();
    const jwe = await encrypt(publicKey.export({ format: 'jwk' }), { enc, ...extra }, '{"a":"ü"}');
    expect(new TextDecoder().decode(decryptEcdhEs(jwe, headerOf(jwe), privateKey))).toBe('{"a":"ü"}');
  });

  it('uses apu/apv in the key derivation (changing apv breaks decryption)', async () => {
    const { publicKey, privateKey } = recipient();
    const jwe = await encrypt(publicKey.export({ format: 'jwk' }), { apv: Buffer.from('nonce').toString('base64url') });
    const header = { ...headerOf(jwe), apv: Buffer.from('other').toString('base64url') };
    expect(() => decryptEcdhEs(jwe, header, privateKey)).toThrow();
  });

  it('refuses an ephemeral key on another curve and a point that is not on the curve', async () => {
    const { publicKey, privateKey } = recipient();
    const jwe = await encrypt(publicKey.export({ format: 'jwk' }), {});
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ format: 'jwk' });
    expect(() => decryptEcdhEs(...reheader(jwe, { epk: p384 }), privateKey)).toThrow(/curve/);
    const epk = headerOf(jwe).epk as Record<string, string>;
    const offCurve = { ...epk, y: Buffer.alloc(32, 7).toString('base64url') };
    expect(() => decryptEcdhEs(...reheader(jwe, { epk: offCurve }), privateKey)).toThrow();
    expect(() => decryptEcdhEs(...reheader(jwe, { epk: { ...epk, kty: 'OKP' } }), privateKey)).toThrow(/epk/);
    // Longer than a field element, even with leading zeros: not a P-256 coordinate.
    const long = { ...epk, x: Buffer.concat([Buffer.alloc(1), Buffer.from(epk.x!, 'base64url')]).toString('base64url') };
    expect(() => decryptEcdhEs(...reheader(jwe, { epk: long }), privateKey)).toThrow(/coordinate/);
  });

  it('reads an ephemeral coordinate sent without its leading zero byte as the same number', () => {
    const { publicKey, privateKey } = recipient();
    // An ephemeral key whose x starts with a zero byte (about one in 256).
    // Drawn with createECDH: exporting just-generated keys in a loop can deadlock Node 20.
    const ecdh = createECDH('prime256v1');
    let point = ecdh.generateKeys();
    while (point[1] !== 0) point = ecdh.generateKeys();
    const scalar = ecdh.getPrivateKey();
    const x = point.subarray(1, 33).toString('base64url');
    const y = point.subarray(33).toString('base64url');
    const d = Buffer.concat([Buffer.alloc(32 - scalar.length), scalar]).toString('base64url');
    const ephemeral = { privateKey: createPrivateKey({ key: { kty: 'EC', crv: 'P-256', x, y, d }, format: 'jwk' }) };
    const header = { alg: 'ECDH-ES', enc: 'A128GCM', epk: { kty: 'EC', crv: 'P-256', x: Buffer.from(x, 'base64url').subarray(1).toString('base64url'), y } };
    const protectedHeader = Buffer.from(JSON.stringify(header)).toString('base64url');
    const cek = concatKdf(diffieHellman({ privateKey: ephemeral.privateKey, publicKey }), 'A128GCM', 16, new Uint8Array(0), new Uint8Array(0));
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-128-gcm', cek, iv).setAAD(Buffer.from(protectedHeader, 'ascii'));
    const ciphertext = Buffer.concat([cipher.update('{"a":1}'), cipher.final()]);
    const jwe = [protectedHeader, '', iv.toString('base64url'), ciphertext.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
    expect(new TextDecoder().decode(decryptEcdhEs(jwe, header, privateKey))).toBe('{"a":1}');
  });

  it('takes only a private EC key on a NIST curve for the agreement', async () => {
    const { publicKey, privateKey } = recipient();
    const jwe = await encrypt(publicKey.export({ format: 'jwk' }), {});
    const ed = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
    expect(() => decryptEcdhEs(jwe, headerOf(jwe), ed)).toThrow(/curve/);
    expect(() => decryptEcdhEs(jwe, headerOf(jwe), publicKey.export({ format: 'jwk' }))).toThrow(/private/);
    expect(() => decryptEcdhEs(jwe, headerOf(jwe), { ...privateKey, d: Buffer.alloc(32).toString('base64url') })).toThrow();
    // The shared ECDH keeps no state between calls: the right key still decrypts after those attempts.
    expect(new TextDecoder().decode(decryptEcdhEs(jwe, headerOf(jwe), privateKey))).toBe('{"vp_token":{}}');
  });
});
