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
