import type { ECDH } from 'node:crypto';

const P256_BYTES = 32;

/**
 * A fresh P-256 key from `ecdh` (a `createECDH('prime256v1')`), as a JWK's base64url `x`, `y`
 * and `d`. Drawn this way rather than as a generated KeyObject exported to JWK: on Node 20 a
 * garbage collection that lands inside the export of a just-generated key deadlocks the process.
 * (@vp-authorizer/core draws its per-request encryption keys the same way; this package does not
 * depend on core, so that core's own tests can use it.)
 */
export function freshP256Numbers(ecdh: ECDH): { x: string; y: string; d: string } {
  const point = ecdh.generateKeys(); // uncompressed: 0x04 ‖ x ‖ y, fixed length
  // The scalar comes back without leading zero bytes; a JWK's `d` is the full field size (RFC 7518 §6.2.2.1).
  const scalar = ecdh.getPrivateKey();
  const d = scalar.length === P256_BYTES ? scalar : Buffer.concat([Buffer.alloc(P256_BYTES - scalar.length), scalar]);
  return {
    x: point.subarray(1, 1 + P256_BYTES).toString('base64url'),
    y: point.subarray(1 + P256_BYTES).toString('base64url'),
    d: d.toString('base64url'),
  };
}
