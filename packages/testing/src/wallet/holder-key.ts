import { webcrypto } from 'node:crypto';

/** A P-256 key pair as JWKs. `publicJwk` carries only `kty, crv, x, y` so it can go into `cnf.jwk`. */
export interface P256KeyPair {
  publicJwk: JsonWebKey;
  privateJwk: JsonWebKey;
}

/** Fresh P-256 key pair from Node's WebCrypto (holder, issuer and subject keys alike). */
export async function generateP256KeyPair(): Promise<P256KeyPair> {
  const pair = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const privateJwk = (await webcrypto.subtle.exportKey('jwk', pair.privateKey)) as JsonWebKey;
  const { kty, crv, x, y } = privateJwk;
  return { publicJwk: { kty, crv, x, y }, privateJwk: { kty, crv, x, y, d: privateJwk.d } };
}
