import * as nodeCrypto from 'node:crypto';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** URL-safe random identifier with `bytes * 8` bits of entropy (default 128), from the CSPRNG. */
export function randomId(bytes = 16): string {
  return randomBytes(bytes).toString('base64url');
}

// node:crypto's one-shot hash (Node 20.12+) builds no Hash object: about half the cost of
// createHash for the short values hashed per request (an API key, a response code). Read off the
// namespace so that older Node 20 releases, which lack it, fall back instead of failing to link.
const oneShotHash = (nodeCrypto as { hash?: <E extends 'buffer' | 'base64url'>(algorithm: string, data: string | Uint8Array, outputEncoding: E) => E extends 'buffer' ? Buffer : string }).hash;

/** SHA-256 of a value (strings as UTF-8), as raw bytes. */
export function sha256(value: string | Uint8Array): Buffer {
  return oneShotHash ? oneShotHash('sha256', value, 'buffer') : createHash('sha256').update(value).digest();
}

/** base64url SHA-256; used to store and compare secrets without keeping them. */
export function sha256Base64url(value: string | Uint8Array): string {
  return oneShotHash ? oneShotHash('sha256', value, 'base64url') : sha256(value).toString('base64url');
}

/**
 * Constant-time string comparison. Both sides are hashed first so that neither the content nor
 * the length of the secret leaks through timing.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}
