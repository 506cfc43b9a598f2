import { createECDH } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Aes128Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { hpkeOpen } from './hpke.js';

// The sender side, from a maintained implementation: what wallets encrypt with.
const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes128Gcm() });
async function hpkeSeal(args: { recipientPublicJwk: JsonWebKey; plaintext: Uint8Array; info: Uint8Array; aad?: Uint8Array; ephemeralPrivateJwk?: JsonWebKey }) {
  const buffer = (bytes: Uint8Array): ArrayBuffer => bytes.slice().buffer as ArrayBuffer;
  const recipientPublicKey = await suite.kem.importKey('jwk', args.recipientPublicJwk, true);
  const e = args.ephemeralPrivateJwk;
  const ekm = e ? { privateKey: await suite.kem.importKey('jwk', e, false), publicKey: await suite.kem.importKey('jwk', { kty: 'EC', crv: 'P-256', x: e.x!, y: e.y! }, true) } : undefined;
  const sealed = await suite.seal({ recipientPublicKey, info: buffer(args.info), ...(ekm ? { ekm } : {}) }, buffer(args.plaintext), buffer(args.aad ?? new Uint8Array(0)));
  return { enc: new Uint8Array(sealed.enc), cipherText: new Uint8Array(sealed.ct) };
}
import { p256Jwk, sharedTestdataJson } from './__fixtures__/shared-testdata.js';

// RFC 9180 appendix A.3.1: DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM, mode_base
// (shared/testdata/annexc-vectors.json, member rfc9180_a3_1, copied from the RFC).
interface A31 { info: string; pkEm: string; skEm: string; pkRm: string; skRm: string; enc: string; encryptions: { seq: number; aad: string; pt: string; ct: string }[] }
const vector = sharedTestdataJson<{ rfc9180_a3_1: A31 }>('annexc-vectors.json').rfc9180_a3_1;
const hex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'));
const first = vector.encryptions.find((e) => e.seq === 0)!;

describe('HPKE base mode, DHKEM(P-256, HKDF-SHA256) / HKDF-SHA256 / AES-128-GCM', () => {
  it('opens the RFC 9180 A.3.1 sequence-0 ciphertext with skRm', async () => {
    const plain = await hpkeOpen({ recipientPrivateJwk: p256Jwk(vector.pkRm, vector.skRm), enc: hex(vector.enc), cipherText: hex(first.ct), info: hex(vector.info), aad: hex(first.aad) });
    expect(Buffer.from(plain).toString('hex')).toBe(first.pt);
  });

  it('the sender implementation used against it (@hpke/core) seals to exactly the RFC 9180 A.3.1 enc and ciphertext', async () => {
    const sealed = await hpkeSeal({ recipientPublicJwk: p256Jwk(vector.pkRm), plaintext: hex(first.pt), info: hex(vector.info), aad: hex(first.aad), ephemeralPrivateJwk: p256Jwk(vector.pkEm, vector.skEm) });
    expect(Buffer.from(sealed.enc).toString('hex')).toBe(vector.enc);
    expect(Buffer.from(sealed.cipherText).toString('hex')).toBe(first.ct);
  });

  it('refuses a ciphertext opened with another info, another aad, another key, or a tampered byte', async () => {
    const key = p256Jwk(vector.pkRm, vector.skRm);
    const base = { recipientPrivateJwk: key, enc: hex(vector.enc), cipherText: hex(first.ct), info: hex(vector.info), aad: hex(first.aad) };
    await expect(hpkeOpen({ ...base, info: new Uint8Array([1]) })).rejects.toThrow();
    await expect(hpkeOpen({ ...base, aad: new Uint8Array(0) })).rejects.toThrow();
    const other = createECDH('prime256v1');
    other.generateKeys();
    await expect(hpkeOpen({ ...base, recipientPrivateJwk: p256Jwk(other.getPublicKey('hex'), other.getPrivateKey('hex').padStart(64, '0')) })).rejects.toThrow();
    const tampered = hex(first.ct);
    tampered[0]! ^= 1;
    await expect(hpkeOpen({ ...base, cipherText: tampered })).rejects.toThrow();
  });

  it('refuses an enc that is not an uncompressed P-256 point before any key work', async () => {
    const base = { recipientPrivateJwk: p256Jwk(vector.pkRm, vector.skRm), cipherText: hex(first.ct), info: hex(vector.info) };
    await expect(hpkeOpen({ ...base, enc: hex(vector.enc).subarray(0, 33) })).rejects.toThrow(/uncompressed/);
    await expect(hpkeOpen({ ...base, enc: new Uint8Array(65) })).rejects.toThrow(/uncompressed/);
  });

  it('opens what @hpke/core seals with fresh ephemeral keys (each seal differs)', async () => {
    const recipient = createECDH('prime256v1');
    recipient.generateKeys();
    const pub = p256Jwk(recipient.getPublicKey('hex'));
    const priv = p256Jwk(recipient.getPublicKey('hex'), recipient.getPrivateKey('hex').padStart(64, '0'));
    const info = new Uint8Array([0x83, 0xf6, 0xf6, 0xf6]);
    const a = await hpkeSeal({ recipientPublicJwk: pub, plaintext: new Uint8Array([1, 2, 3]), info });
    const b = await hpkeSeal({ recipientPublicJwk: pub, plaintext: new Uint8Array([1, 2, 3]), info });
    expect(Buffer.from(a.enc).equals(Buffer.from(b.enc))).toBe(false);
    expect([...(await hpkeOpen({ recipientPrivateJwk: priv, enc: a.enc, cipherText: a.cipherText, info }))]).toEqual([1, 2, 3]);
  });
});
