import { Aes128Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';

/**
 * HPKE (RFC 9180) base mode with DHKEM(P-256, HKDF-SHA256), HKDF-SHA256 and AES-128-GCM: the one
 * suite ISO/IEC 18013-7 Annex C uses. `@hpke/core` does the work; this fixes the suite and the
 * byte shapes (uncompressed points for `enc`, JWKs for keys) in one place.
 */
const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes128Gcm() });

/** `enc` of this suite: an uncompressed P-256 point (0x04 ‖ x ‖ y). */
export const HPKE_P256_ENC_LENGTH = 65;

const toArrayBuffer = (bytes: Uint8Array): ArrayBuffer => bytes.slice().buffer as ArrayBuffer;

/** Single-shot open (sequence 0). Throws on any failure; callers map it to their own error. */
export async function hpkeOpen(args: { recipientPrivateJwk: JsonWebKey; enc: Uint8Array; cipherText: Uint8Array; info: Uint8Array; aad?: Uint8Array }): Promise<Uint8Array> {
  if (args.enc.length !== HPKE_P256_ENC_LENGTH || args.enc[0] !== 0x04) throw new TypeError('enc must be an uncompressed P-256 point');
  const recipientKey = await suite.kem.importKey('jwk', args.recipientPrivateJwk, false);
  const plain = await suite.open(
    { recipientKey, enc: toArrayBuffer(args.enc), info: toArrayBuffer(args.info) },
    toArrayBuffer(args.cipherText),
    toArrayBuffer(args.aad ?? new Uint8Array(0)),
  );
  return new Uint8Array(plain);
}

/**
 * Single-shot seal to a P-256 public JWK: what a wallet does (the test wallet uses it).
 * `ephemeralPrivateJwk` fixes the sender's ephemeral key, for test vectors only.
 */
export async function hpkeSeal(args: { recipientPublicJwk: JsonWebKey; plaintext: Uint8Array; info: Uint8Array; aad?: Uint8Array; ephemeralPrivateJwk?: JsonWebKey }): Promise<{ enc: Uint8Array; cipherText: Uint8Array }> {
  const recipientPublicKey = await suite.kem.importKey('jwk', args.recipientPublicJwk, true);
  const ekm = args.ephemeralPrivateJwk
    ? { privateKey: await suite.kem.importKey('jwk', args.ephemeralPrivateJwk, false), publicKey: await suite.kem.importKey('jwk', publicOf(args.ephemeralPrivateJwk), true) }
    : undefined;
  const sealed = await suite.seal(
    { recipientPublicKey, info: toArrayBuffer(args.info), ...(ekm ? { ekm } : {}) },
    toArrayBuffer(args.plaintext),
    toArrayBuffer(args.aad ?? new Uint8Array(0)),
  );
  return { enc: new Uint8Array(sealed.enc), cipherText: new Uint8Array(sealed.ct) };
}

function publicOf(jwk: JsonWebKey): JsonWebKey {
  return { kty: jwk.kty!, crv: jwk.crv!, x: jwk.x!, y: jwk.y! };
}
