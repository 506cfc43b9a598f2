import { createECDH } from 'node:crypto';
import type { EncryptionKeyRecord } from '../model/authorization-record.js';
import { randomId } from '../crypto/secrets.js';

const P256_BYTES = 32;

// One ECDH for the process: generateKeys() draws a fresh scalar from OpenSSL's CSPRNG each call,
// and reading it out happens in the same synchronous step, so requests never share a key. It
// replaces generateKeyPairSync + KeyObject.export({ format: 'jwk' }), which on Node 20 can
// deadlock when a garbage collection lands inside the export of a just-generated key.
const ecdh = createECDH('prime256v1');

/** A fresh ECDH-ES P-256 key for one request's encrypted response (HAIP: per-request keys). */
export async function generateEncryptionKey(): Promise<EncryptionKeyRecord> {
  ecdh.generateKeys();
  // The scalar comes back without leading zero bytes; a JWK's `d` is the full field size (RFC 7518 §6.2.2.1).
  const d = fixedLength(ecdh.getPrivateKey(), P256_BYTES);
  const point = ecdh.getPublicKey(); // uncompressed: 0x04 ‖ x ‖ y, fixed length
  const kid = randomId(16);
  const x = point.subarray(1, 1 + P256_BYTES).toString('base64url');
  const y = point.subarray(1 + P256_BYTES).toString('base64url');
  return {
    kid,
    alg: 'ECDH-ES',
    publicJwk: { kty: 'EC', crv: 'P-256', x, y, kid, alg: 'ECDH-ES', use: 'enc' },
    privateJwk: { kty: 'EC', crv: 'P-256', x, y, d: d.toString('base64url'), kid, alg: 'ECDH-ES', use: 'enc' } as JsonWebKey,
  };
}

function fixedLength(bytes: Buffer, length: number): Buffer {
  if (bytes.length === length) return bytes;
  const padded = Buffer.alloc(length);
  bytes.copy(padded, length - bytes.length);
  return padded;
}
