import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** URL-safe random identifier with `bytes * 8` bits of entropy (default 128). */
export function randomId(bytes = 16): string {
  return randomBytes(bytes).toString('base64url');
}

/** base64url SHA-256; used to store and compare secrets without keeping them. */
export function sha256Base64url(value: string | Uint8Array): string {
  return createHash('sha256').update(value).digest('base64url');
}

/**
 * Constant-time string comparison. Both sides are hashed first so that neither the content nor
 * the length of the secret leaks through timing.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

/** Compare a presented secret with a stored SHA-256 digest (raw bytes) in constant time. */
export function matchesDigest(presented: string, digest: Buffer): boolean {
  return timingSafeEqual(createHash('sha256').update(presented).digest(), digest);
}

export function sha256Digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
