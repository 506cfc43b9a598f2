import { createECDH } from 'node:crypto';

/** A P-256 key pair as JWKs. `publicJwk` carries only `kty, crv, x, y` so it can go into `cnf.jwk`. */
export interface P256KeyPair {
  publicJwk: JsonWebKey;
  privateJwk: JsonWebKey;
}

const CURVES = { 'P-256': ['prime256v1', 32], 'P-384': ['secp384r1', 48] } as const;

/**
 * A fresh EC key pair as JWKs (`kty, crv, x, y`[, `d`] only), read out of createECDH. Not a
 * generated key exported as JWK: on Node 20 a garbage collection that lands inside the export of
 * a just-generated key deadlocks the process, and test suites create many keys.
 */
export function freshEcJwks(namedCurve: keyof typeof CURVES): P256KeyPair {
  const [opensslCurve, size] = CURVES[namedCurve];
  const ecdh = createECDH(opensslCurve);
  const point = ecdh.generateKeys(); // uncompressed: 0x04 ‖ x ‖ y
  const scalar = ecdh.getPrivateKey(); // without leading zero bytes: JWK's `d` is the full field size
  const publicJwk = { kty: 'EC', crv: namedCurve, x: point.subarray(1, 1 + size).toString('base64url'), y: point.subarray(1 + size).toString('base64url') };
  return { publicJwk, privateJwk: { ...publicJwk, d: Buffer.concat([Buffer.alloc(size - scalar.length), scalar]).toString('base64url') } };
}

/** Fresh P-256 key pair (holder, issuer and subject keys alike). */
export async function generateP256KeyPair(): Promise<P256KeyPair> {
  return freshEcJwks('P-256');
}
