/**
 * Nonce charset of OpenID4VP 1.0 section 5.2. Decided here: 16..256 characters, so a caller-chosen
 * nonce cannot be trivially short (16 base64url characters ≈ 96 bits) nor abuse storage.
 */
export const NONCE_PATTERN = /^[A-Za-z0-9._~-]{16,256}$/;

/** An absolute http(s) URL with a host: what a create body's `redirectUri` must be. */
export function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '';
  } catch {
    return false;
  }
}
