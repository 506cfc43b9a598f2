import { createECDH } from 'node:crypto';

/** A P-256 key pair as JWKs. `publicJwk` carries only `kty, crv, x, y` so it can go into `cnf.jwk`. */
export interface P256KeyPair {
  publicJwk: JsonWebKey;
  privateJwk: JsonWebKey;
}

const P256_BYTES = 32;

/**
 * Fresh P-256 key pair (holder, issuer and subject keys alike), read out as raw numbers. Not a
 * generated KeyObject exported as JWK: on Node 20 a garbage collection that lands inside the
 * export of a just-generated key deadlocks the process, and test suites create many of these.
 */
export async function generateP256KeyPair(): Promise<P256KeyPair> {
  const ecdh = createECDH('prime256v1');
  const point = ecdh.generateKeys(); // uncompressed: 0x04 ‖ x ‖ y
  const scalar = ecdh.getPrivateKey(); // without leading zero bytes: JWK's `d` is the full field size
  const d = Buffer.concat([Buffer.alloc(P256_BYTES - scalar.length), scalar]).toString('base64url');
  const x = point.subarray(1, 1 + P256_BYTES).toString('base64url');
  const y = point.subarray(1 + P256_BYTES).toString('base64url');
  return { publicJwk: { kty: 'EC', crv: 'P-256', x, y }, privateJwk: { kty: 'EC', crv: 'P-256', x, y, d } };
}
