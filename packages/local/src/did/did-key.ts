import type { DidDocument } from './did-document.js';
import { multikeyToJwk } from './multikey.js';

/** did:key: the id is a multibase multicodec key; its verification method is `#<id>`. */
export function resolveDidKey(did: string, id: string): DidDocument {
  const jwk = multikeyToJwk(id);
  const vmId = `${did}#${id}`;
  return {
    id: did,
    verificationMethod: [{ id: vmId, type: 'JsonWebKey2020', controller: did, publicKeyJwk: jwk }],
    authentication: [vmId],
    assertionMethod: [vmId],
  };
}
