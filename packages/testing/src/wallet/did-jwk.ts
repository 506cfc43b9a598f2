import { toBase64Url } from './base64url.js';

/** `did:jwk` for a public JWK (only the public members are encoded) and its verification method id. */
export function didJwk(publicJwk: JsonWebKey): { did: string; kid: string } {
  const { kty, crv, x, y } = publicJwk;
  const did = `did:jwk:${toBase64Url(JSON.stringify({ crv, kty, x, y }))}`;
  return { did, kid: `${did}#0` };
}
