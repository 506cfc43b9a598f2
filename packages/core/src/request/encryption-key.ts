import { createECDH } from 'node:crypto';
import type { EncryptionKeyRecord } from '../model/authorization-record.js';
import { freshP256Numbers } from '../crypto/p256-key-numbers.js';
import { randomId } from '../crypto/secrets.js';

// One ECDH for the process: generateKeys() draws a fresh scalar from OpenSSL's CSPRNG each call,
// and reading it out happens in the same synchronous step, so requests never share a key.
const ecdh = createECDH('prime256v1');

/** A fresh ECDH-ES P-256 key for one request's encrypted response (HAIP: per-request keys). */
export async function generateEncryptionKey(): Promise<EncryptionKeyRecord> {
  const { x, y, d } = freshP256Numbers(ecdh);
  const kid = randomId(16);
  return {
    kid,
    alg: 'ECDH-ES',
    publicJwk: { kty: 'EC', crv: 'P-256', x, y, kid, alg: 'ECDH-ES', use: 'enc' },
    privateJwk: { kty: 'EC', crv: 'P-256', x, y, d, kid, alg: 'ECDH-ES', use: 'enc' } as JsonWebKey,
  };
}
