/**
 * Strict base64url (RFC 4648 section 5, no padding). Node's decoder silently skips invalid
 * characters, which would let malformed wallet input decode to something; we check first.
 */
const BASE64URL = /^[A-Za-z0-9_-]*$/;

export function isBase64Url(value: string): boolean {
  // A length of 4n+1 cannot come from any byte sequence.
  return BASE64URL.test(value) && value.length % 4 !== 1;
}

/** Decodes base64url; throws a TypeError (without echoing the input) when it is not base64url. */
export function base64UrlToBytes(value: string): Uint8Array {
  if (!isBase64Url(value)) throw new TypeError('Invalid base64url');
  const buffer = Buffer.from(value, 'base64url');
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

export function bytesToBase64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes base64url to UTF-8 text; throws on invalid base64url or invalid UTF-8. */
export function base64UrlToUtf8(value: string): string {
  return UTF8.decode(base64UrlToBytes(value));
}
