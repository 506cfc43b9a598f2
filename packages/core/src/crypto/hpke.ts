import { Aes128Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';

/**
 * HPKE (RFC 9180) base-mode open for the one suite ISO/IEC 18013-7 Annex C uses:
 * DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM, through `@hpke/core` (the tests hold it
 * to the RFC 9180 A.3.1 vector). One suite serves the process: it keeps no state between opens
 * (its suite ids, and the WebCrypto handle once loaded); every open gets its own recipient
 * context. The recipient key is imported per open: each authorization has its own key, used for
 * one response, and it must not outlive the record that holds it.
 */
const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes128Gcm() });

/** `enc` of this suite: an uncompressed P-256 point (0x04 ‖ x ‖ y). */
export const HPKE_P256_ENC_LENGTH = 65;
const TAG_LENGTH = 16;

const arrayBufferOf = (bytes: Uint8Array): ArrayBuffer => bytes.slice().buffer as ArrayBuffer;

/** Single-shot open (sequence 0) with a P-256 private JWK. Throws on any failure; callers map it to their own error. */
export async function hpkeOpen(args: { recipientPrivateJwk: JsonWebKey; enc: Uint8Array; cipherText: Uint8Array; info: Uint8Array; aad?: Uint8Array }): Promise<Uint8Array> {
  const { enc, cipherText } = args;
  if (enc.length !== HPKE_P256_ENC_LENGTH || enc[0] !== 0x04) throw new TypeError('enc must be an uncompressed P-256 point');
  if (cipherText.length < TAG_LENGTH) throw new TypeError('the ciphertext is shorter than its tag');
  if (typeof args.recipientPrivateJwk.d !== 'string') throw new TypeError('the recipient key has no private part');
  // Decap refuses an `enc` that is not a point on the curve (the import of the point fails).
  const recipientKey = await suite.kem.importKey('jwk', args.recipientPrivateJwk, false);
  const plain = await suite.open(
    { recipientKey, enc: arrayBufferOf(enc), info: arrayBufferOf(args.info) },
    arrayBufferOf(cipherText),
    arrayBufferOf(args.aad ?? new Uint8Array(0)),
  );
  return new Uint8Array(plain);
}
