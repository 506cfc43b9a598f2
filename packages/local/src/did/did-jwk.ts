import type { JWK } from 'jose';
import type { DidDocument } from './did-document.js';
import { DidResolutionError } from './did-resolution-error.js';

/** did:jwk: the method-specific id is the base64url JSON JWK; the key's id is `#0`. */
export function resolveDidJwk(did: string, id: string): DidDocument {
  let jwk: JWK;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new Error('not base64url');
    jwk = JSON.parse(Buffer.from(id, 'base64url').toString('utf8')) as JWK;
  } catch {
    throw new DidResolutionError('did.invalid', 'The did:jwk identifier is not a base64url JSON JWK');
  }
  if (typeof jwk !== 'object' || jwk === null || typeof jwk.kty !== 'string') throw new DidResolutionError('did.invalid', 'The did:jwk identifier is not a JWK');
  if ('d' in jwk) throw new DidResolutionError('did.invalid', 'The did:jwk identifier contains private key material');
  const vmId = `${did}#0`;
  const vm = { id: vmId, type: 'JsonWebKey2020', controller: did, publicKeyJwk: jwk };
  // A key marked for encryption is only a keyAgreement key (did:jwk spec).
  const signing = jwk.use === 'enc' ? [] : [vmId];
  return { id: did, verificationMethod: [vm], authentication: signing, assertionMethod: signing };
}
