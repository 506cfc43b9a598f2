import { generateKeyPairSync } from 'node:crypto';
import type { EncryptionKeyRecord } from '../model/authorization-record.js';
import { randomId } from '../crypto/secrets.js';
import { encryptionKeys } from '../crypto/private-key-cache.js';

/** A fresh ECDH-ES P-256 key for one request's encrypted response (HAIP: per-request keys). */
export async function generateEncryptionKey(): Promise<EncryptionKeyRecord> {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const kid = randomId(16);
  // The private JWK carries the public coordinates: one export instead of two.
  const priv = privateKey.export({ format: 'jwk' });
  const privateJwk = { ...priv, kid, alg: 'ECDH-ES', use: 'enc' } as JsonWebKey;
  // Decrypting this request's response in this process then needs no key import.
  encryptionKeys.remember(kid, privateKey, privateJwk);
  return {
    kid,
    alg: 'ECDH-ES',
    publicJwk: { kty: priv.kty!, crv: priv.crv!, x: priv.x!, y: priv.y!, kid, alg: 'ECDH-ES', use: 'enc' },
    privateJwk,
  };
}
