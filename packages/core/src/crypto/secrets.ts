import * as nodeCrypto from 'node:crypto';
import { createHash, randomBytes, randomFillSync, timingSafeEqual } from 'node:crypto';

// One CSPRNG call per 4 KiB instead of one per identifier (a flow takes about six): each call
// costs several µs of fixed overhead. Bytes handed out are zeroed at once, so an identifier
// (a response code, a nonce) does not stay readable here after its use.
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolOffset = POOL_BYTES;

/** URL-safe random identifier with `bytes * 8` bits of entropy (default 128). */
export function randomId(bytes = 16): string {
  if (bytes > POOL_BYTES / 4) return randomBytes(bytes).toString('base64url');
  if (poolOffset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const id = pool.toString('base64url', poolOffset, poolOffset + bytes);
  pool.fill(0, poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return id;
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
