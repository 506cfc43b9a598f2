import { createDecipheriv, createECDH, createHash, type ECDH } from 'node:crypto';
import { base64UrlToBytes } from './base64url.js';

/** Content encryption with AES-GCM (RFC 7518 section 5.3): key length in bytes. */
const GCM_KEY_BYTES: Record<string, number> = { A128GCM: 16, A192GCM: 24, A256GCM: 32 };
const GCM_IV_BYTES = 12;
const GCM_TAG_BYTES = 16;

/**
 * The NIST curves a JWK `crv` names, with OpenSSL's name and the coordinate length. All have
 * cofactor 1, so a point on the curve is in the prime-order group: the on-curve check that
 * decoding a point does is the whole invalid-curve defence.
 */
const CURVES: Record<string, { openssl: string; bytes: number }> = {
  'P-256': { openssl: 'prime256v1', bytes: 32 },
  'P-384': { openssl: 'secp384r1', bytes: 48 },
  'P-521': { openssl: 'secp521r1', bytes: 66 },
};

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
 * One ECDH per curve for the whole process: creating one builds the curve's group, which costs a
 * good part of an agreement. Safe to share because every use sets the private key and computes
 * the secret in one synchronous step (nothing can run in between). The last scalar stays in it
 * until the next decryption; the stored record holds the same key all along anyway.
 */
const agreements = new Map<string, ECDH>();

/** The shared secret of the recipient's private EC JWK with `point`; throws on a bad key or point. */
function agree(privateJwk: JsonWebKey, curve: { openssl: string }, point: Uint8Array): Buffer {
  if (typeof privateJwk.d !== 'string') throw new TypeError('not a private key');
  let ecdh = agreements.get(curve.openssl);
  if (!ecdh) agreements.set(curve.openssl, (ecdh = createECDH(curve.openssl)));
  // Rejects a scalar outside [1, n-1].
  ecdh.setPrivateKey(base64UrlToBytes(privateJwk.d));
  // Throws ERR_CRYPTO_ECDH_INVALID_PUBLIC_KEY for a point that is not on the curve.
  return ecdh.computeSecret(point);
}

/** One affine coordinate as the fixed-length big-endian field element (RFC 7518 section 6.2.1.2). */
function coordinate(value: string, bytes: number): Uint8Array {
  const decoded = base64UrlToBytes(value);
  if (decoded.length > bytes || decoded.length === 0) throw new TypeError('epk coordinate length');
  if (decoded.length === bytes) return decoded;
  // A short encoding (leading zero bytes dropped) names the same number, as a JWK import reads it.
  const padded = new Uint8Array(bytes);
  padded.set(decoded, bytes - decoded.length);
  return padded;
}

/**
 * Decrypts a compact JWE with `alg: ECDH-ES` (direct key agreement) and an AES-GCM `enc` using
 * node:crypto with the recipient's private JWK. `header` is the already decoded protected
 * header, whose `alg`, `enc` (from the caller's allow-list), `kid` and `zip` the caller has
 * checked. Here: no `crit`; an EC `epk` on the recipient key's curve, which must be a point on
 * that curve (OpenSSL checks it while decoding the point, before any multiplication); an empty
 * encrypted key; a 96-bit IV and a 128-bit tag; the tag authenticates the ciphertext and the
 * protected header as sent (AAD). The ephemeral key goes to ECDH as an uncompressed point rather
 * than through a KeyObject: OpenSSL's key check on a JWK import also multiplies the point by the
 * group order, which on these cofactor-1 curves adds nothing to the on-curve check and costs
 * about as much as the agreement itself.
 * Throws on any failure without saying more: the caller turns that into one generic error.
 */
export function decryptEcdhEs(jwe: string, header: Record<string, unknown>, privateJwk: JsonWebKey): Uint8Array {
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
  const curve = privateJwk.kty === 'EC' && typeof privateJwk.crv === 'string' ? CURVES[privateJwk.crv] : undefined;
  if (curve === undefined) throw new TypeError('not a private EC key on a supported curve');
  if (crv !== privateJwk.crv) throw new TypeError('epk curve');
  const { bytes } = curve;
  const point = new Uint8Array(1 + 2 * bytes);
  point[0] = 0x04; // uncompressed: the point at infinity and compressed forms cannot be expressed
  point.set(coordinate(x, bytes), 1);
  point.set(coordinate(y, bytes), 1 + bytes);
  const sharedSecret = agree(privateJwk, curve, point);
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
