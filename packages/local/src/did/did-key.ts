import { base58btcDecode } from './base58btc.js';
import type { DidDocument, VerificationMethod } from './did-document.js';
import { multikeyToJwk } from './multikey.js';

/** bls12_381-g2-pub (0xeb): a 96-byte compressed G2 point. JOSE has no registered form for it. */
function isBls12381G2Key(id: string): boolean {
  if (!id.startsWith('z')) return false;
  try {
    const bytes = base58btcDecode(id.slice(1));
    return bytes[0] === 0xeb && bytes[1] === 0x01 && bytes.length === 98;
  } catch {
    return false;
  }
}

/**
 * did:key: the id is a multibase multicodec key; its verification method is `#<id>`, a JWK (and
 * the multibase key itself) for the keys JOSE knows, a Multikey for BLS12-381 G2 keys (bbs-2023
 * Data Integrity proofs).
 */
export function resolveDidKey(did: string, id: string): DidDocument {
  const known = documents.get(did);
  if (known) return known;
  const document = deepFreeze(didKeyDocument(did, id));
  if (documents.size >= MAX_DOCUMENTS) documents.delete(documents.keys().next().value!);
  documents.set(did, document);
  return document;
}

/** did:key documents are a pure function of the DID: the last ones built are kept (frozen). */
const MAX_DOCUMENTS = 1_000;
const documents = new Map<string, DidDocument>();
const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
};

function didKeyDocument(did: string, id: string): DidDocument {
  const vmId = `${did}#${id}`;
  const vm: VerificationMethod = isBls12381G2Key(id) ? { id: vmId, type: 'Multikey', controller: did, publicKeyMultibase: id } : { id: vmId, type: 'JsonWebKey2020', controller: did, publicKeyJwk: multikeyToJwk(id), publicKeyMultibase: id };
  return {
    id: did,
    verificationMethod: [vm],
    authentication: [vmId],
    assertionMethod: [vmId],
  };
}
