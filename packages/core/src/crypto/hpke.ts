import { createDecipheriv, createECDH, createHmac } from 'node:crypto';
import { base64UrlToBytes } from './base64url.js';

/**
 * HPKE (RFC 9180) base-mode open for the one suite ISO/IEC 18013-7 Annex C uses:
 * DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM. Built on node:crypto (ECDH, HMAC,
 * AES-GCM) in this one module because `@hpke/core` 1.9 spent ~3.7 ms of CPU per open on this
 * machine (import of the private JWK, then open), more than the whole direct-crypto side of
 * bench/annex-c-response-cost.mjs; the tests hold this module to the RFC 9180 A.3.1 vector and to
 * `@hpke/core` as the sender.
 */

/** `enc` of this suite: an uncompressed P-256 point (0x04 ‖ x ‖ y). */
export const HPKE_P256_ENC_LENGTH = 65;

const VERSION = Buffer.from('HPKE-v1');
const KEM_SUITE = Buffer.from([0x4b, 0x45, 0x4d, 0x00, 0x10]); // "KEM" ‖ kem_id 0x0010
const HPKE_SUITE = Buffer.from([0x48, 0x50, 0x4b, 0x45, 0x00, 0x10, 0x00, 0x01, 0x00, 0x01]); // "HPKE" ‖ kem ‖ kdf 0x0001 ‖ aead 0x0001
const ZERO_SALT = Buffer.alloc(32);
const TAG_LENGTH = 16;

const hmac = (key: Uint8Array, ...parts: Uint8Array[]): Buffer => {
  const mac = createHmac('sha256', key.length === 0 ? ZERO_SALT : key);
  for (const part of parts) mac.update(part);
  return mac.digest();
};
/** LabeledExtract(salt, label, ikm) = HKDF-Extract(salt, "HPKE-v1" ‖ suite_id ‖ label ‖ ikm). */
const labeledExtract = (suite: Buffer, salt: Uint8Array, label: string, ikm: Uint8Array): Buffer => hmac(salt, VERSION, suite, Buffer.from(label), ikm);
/** LabeledExpand for L ≤ 32 (one HKDF-Expand block): T(1) = HMAC(prk, I2OSP(L, 2) ‖ "HPKE-v1" ‖ suite_id ‖ label ‖ info ‖ 0x01). */
const labeledExpand = (suite: Buffer, prk: Uint8Array, label: string, info: Uint8Array, length: number): Buffer =>
  hmac(prk, Buffer.from([0, length]), VERSION, suite, Buffer.from(label), info, Buffer.from([1])).subarray(0, length);
/** psk_id_hash of mode_base: the psk_id is empty, so it is a constant of the suite. */
const PSK_ID_HASH = labeledExtract(HPKE_SUITE, new Uint8Array(0), 'psk_id_hash', new Uint8Array(0));

/** Single-shot open (sequence 0) with a P-256 private JWK. Throws on any failure; callers map it to their own error. */
export async function hpkeOpen(args: { recipientPrivateJwk: JsonWebKey; enc: Uint8Array; cipherText: Uint8Array; info: Uint8Array; aad?: Uint8Array }): Promise<Uint8Array> {
  const { enc, cipherText } = args;
  if (enc.length !== HPKE_P256_ENC_LENGTH || enc[0] !== 0x04) throw new TypeError('enc must be an uncompressed P-256 point');
  if (cipherText.length < TAG_LENGTH) throw new TypeError('the ciphertext is shorter than its tag');
  if (typeof args.recipientPrivateJwk.d !== 'string') throw new TypeError('the recipient key has no private part');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(base64UrlToBytes(args.recipientPrivateJwk.d));
  // Decap (RFC 9180 4.1): computeSecret refuses a point that is not on the curve.
  const dh = ecdh.computeSecret(enc);
  const kemContext = Buffer.concat([enc, ecdh.getPublicKey()]);
  const sharedSecret = labeledExpand(KEM_SUITE, labeledExtract(KEM_SUITE, new Uint8Array(0), 'eae_prk', dh), 'shared_secret', kemContext, 32);
  // KeySchedule (5.1), mode_base: no PSK.
  const context = Buffer.concat([Buffer.from([0x00]), PSK_ID_HASH, labeledExtract(HPKE_SUITE, new Uint8Array(0), 'info_hash', args.info)]);
  const secret = labeledExtract(HPKE_SUITE, sharedSecret, 'secret', new Uint8Array(0));
  const key = labeledExpand(HPKE_SUITE, secret, 'key', context, 16);
  const nonce = labeledExpand(HPKE_SUITE, secret, 'base_nonce', context, 12); // sequence 0: XOR with zero
  const decipher = createDecipheriv('aes-128-gcm', key, nonce, { authTagLength: TAG_LENGTH });
  decipher.setAuthTag(cipherText.subarray(cipherText.length - TAG_LENGTH));
  if (args.aad && args.aad.length > 0) decipher.setAAD(args.aad);
  const plain = Buffer.concat([decipher.update(cipherText.subarray(0, cipherText.length - TAG_LENGTH)), decipher.final()]);
  return new Uint8Array(plain.buffer, plain.byteOffset, plain.byteLength);
}
