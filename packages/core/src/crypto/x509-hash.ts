import { createHash } from 'node:crypto';

const BASE64_ANY = /^[A-Za-z0-9+/_-]+={0,2}$/;
const PEM_BODY = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/;

/**
 * Decode a certificate given as DER bytes, standard base64 (as in `x5c`), base64url or PEM.
 * Node's base64 decoder silently skips invalid characters, so the alphabet is checked first.
 */
export function certificateDer(derOrBase64: Uint8Array | string): Uint8Array<ArrayBuffer> {
  if (typeof derOrBase64 !== 'string') return new Uint8Array(derOrBase64);
  const pem = PEM_BODY.exec(derOrBase64);
  const text = (pem ? pem[1]! : derOrBase64).replace(/\s+/g, '');
  if (text.length === 0 || !BASE64_ANY.test(text)) throw new TypeError('certificate must be DER bytes, base64, base64url or PEM');
  return new Uint8Array(Buffer.from(text, text.includes('-') || text.includes('_') ? 'base64url' : 'base64'));
}

/**
 * `x509_hash` client identifier value (OpenID4VP 1.0 section 5.9.3): base64url without padding
 * of SHA-256 over the DER encoding of the leaf certificate. `x5c` entries are standard base64,
 * so strings are decoded before hashing, never hashed as text.
 */
export function x509Hash(derOrBase64: Uint8Array | string): string {
  return createHash('sha256').update(certificateDer(derOrBase64)).digest('base64url');
}
