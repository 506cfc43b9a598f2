import { createDecipheriv, createHash, createPublicKey, diffieHellman, type KeyObject } from 'node:crypto';
import { base64UrlToBytes } from './base64url.js';

/** Content encryption with AES-GCM (RFC 7518 section 5.3): key length in bytes. */
const GCM_KEY_BYTES: Record<string, number> = { A128GCM: 16, A192GCM: 24, A256GCM: 32 };
const GCM_IV_BYTES = 12;
const GCM_TAG_BYTES = 16;

const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const lengthPrefixed = (bytes: Uint8Array): Buffer => Buffer.concat([u32(bytes.length), bytes]);

/**
 * Concat KDF of RFC 7518 section 4.6.2 (NIST SP 800-56A, SHA-256) for ECDH-ES direct key
 * agreement: AlgorithmID is the `enc` value, PartyUInfo/PartyVInfo the decoded `apu`/`apv`,
 * SuppPubInfo the key length in bits.
 */
export function concatKdf(sharedSecret: Uint8Array, enc: string, keyBytes: number, apu: Uint8Array, apv: Uint8Array): Buffer {
  const otherInfo = Buffer.concat([lengthPrefixed(Buffer.from(enc, 'ascii')), lengthPrefixed(apu), lengthPrefixed(apv), u32(keyBytes * 8)]);
  const out: Buffer[] = [];
  for (let round = 1; out.length * 32 < keyBytes; round++) out.push(createHash('sha256').update(u32(round)).update(sharedSecret).update(otherInfo).digest());
  return Buffer.concat(out).subarray(0, keyBytes);
}

const b64 = (value: unknown, what: string): Uint8Array => {
  if (typeof value !== 'string') throw new TypeError(`${what} is not a string`);
  return base64UrlToBytes(value);
};

/**
 * Decrypts a compact JWE with `alg: ECDH-ES` (direct key agreement) and an AES-GCM `enc` using
 * node:crypto, with the recipient's private key as a KeyObject. `header` is the already decoded
 * protected header, whose `alg`, `enc` (from the caller's allow-list), `kid` and `zip` the caller
 * has checked. Here: no `crit`; an EC `epk` on the recipient key's curve (a point not on the curve
 * fails to import); an empty encrypted key; a 96-bit IV and a 128-bit tag; the tag authenticates
 * the ciphertext and the protected header as sent (AAD). Throws on any failure without saying
 * more: the caller turns that into one generic error.
 */
export function decryptEcdhEs(jwe: string, header: Record<string, unknown>, privateKey: KeyObject): Uint8Array {
  const parts = jwe.split('.');
  if (parts.length !== 5) throw new TypeError('not a compact JWE');
  const [protectedHeader, encryptedKey, iv, ciphertext, tag] = parts as [string, string, string, string, string];
  if (header.alg !== 'ECDH-ES') throw new TypeError('alg');
  if (header.crit !== undefined) throw new TypeError('crit');
  const enc = header.enc;
  const keyBytes = typeof enc === 'string' ? GCM_KEY_BYTES[enc] : undefined;
  if (keyBytes === undefined) throw new TypeError('enc');
  if (encryptedKey !== '') throw new TypeError('ECDH-ES uses no encrypted key');
  const epk = header.epk;
  if (typeof epk !== 'object' || epk === null || Array.isArray(epk)) throw new TypeError('epk');
  const { kty, crv, x, y } = epk as Record<string, unknown>;
  if (kty !== 'EC' || typeof crv !== 'string' || typeof x !== 'string' || typeof y !== 'string') throw new TypeError('epk');
  const curve = privateKey.asymmetricKeyDetails?.namedCurve;
  const ephemeral = createPublicKey({ key: { kty, crv, x, y }, format: 'jwk' });
  if (ephemeral.asymmetricKeyType !== 'ec' || ephemeral.asymmetricKeyDetails?.namedCurve !== curve) throw new TypeError('epk curve');
  const sharedSecret = diffieHellman({ privateKey, publicKey: ephemeral });
  const apu = header.apu === undefined ? new Uint8Array(0) : b64(header.apu, 'apu');
  const apv = header.apv === undefined ? new Uint8Array(0) : b64(header.apv, 'apv');
  const cek = concatKdf(sharedSecret, enc as string, keyBytes, apu, apv);
  const ivBytes = base64UrlToBytes(iv);
  const tagBytes = base64UrlToBytes(tag);
  if (ivBytes.length !== GCM_IV_BYTES || tagBytes.length !== GCM_TAG_BYTES) throw new TypeError('iv or tag length');
  const decipher = createDecipheriv(`aes-${keyBytes * 8}-gcm` as 'aes-128-gcm', cek, ivBytes, { authTagLength: GCM_TAG_BYTES });
  decipher.setAAD(Buffer.from(protectedHeader, 'ascii'));
  decipher.setAuthTag(tagBytes);
  return new Uint8Array(Buffer.concat([decipher.update(base64UrlToBytes(ciphertext)), decipher.final()]));
}
