import { exportJWK, generateKeyPair } from 'jose';
import type { EncryptionKeyRecord } from '../model/authorization-record.js';
import { randomId } from '../crypto/secrets.js';

/** A fresh ECDH-ES P-256 key for one request's encrypted response (HAIP: per-request keys). */
export async function generateEncryptionKey(): Promise<EncryptionKeyRecord> {
  const { publicKey, privateKey } = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
  const kid = randomId(16);
  const pub = await exportJWK(publicKey);
  const priv = await exportJWK(privateKey);
  return {
    kid,
    alg: 'ECDH-ES',
    publicJwk: { kty: pub.kty, crv: pub.crv, x: pub.x, y: pub.y, kid, alg: 'ECDH-ES', use: 'enc' },
    privateJwk: { ...priv, kid, alg: 'ECDH-ES', use: 'enc' } as JsonWebKey,
  };
}
