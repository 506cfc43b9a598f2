import { generateKeyPairSync } from 'node:crypto';
import { CompactEncrypt, importJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { decryptEcdhEs } from './ecdh-es-decrypt.js';

const recipient = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });
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
  });

  it('refuses crit, an encrypted key, another alg and a short IV or tag', async () => {
    const { publicKey, privateKey } = recipient();
    const jwe = await encrypt(publicKey.export({ format: 'jwk' }), {});
    expect(() => decryptEcdhEs(...reheader(jwe, { crit: ['exp'], exp: 1 }), privateKey)).toThrow(/crit/);
    expect(() => decryptEcdhEs(...reheader(jwe, { alg: 'ECDH-ES+A128KW' }), privateKey)).toThrow(/alg/);
    const parts = jwe.split('.');
    expect(() => decryptEcdhEs([parts[0], 'AAAA', ...parts.slice(2)].join('.'), headerOf(jwe), privateKey)).toThrow(/encrypted key/);
    expect(() => decryptEcdhEs([...parts.slice(0, 2), 'AAAA', ...parts.slice(3)].join('.'), headerOf(jwe), privateKey)).toThrow(/length/);
    expect(() => decryptEcdhEs([...parts.slice(0, 4), 'AAAA'].join('.'), headerOf(jwe), privateKey)).toThrow(/length/);
  });
});
