import type { DidDocument, ResolvedDidKey, VerificationMethod, VerificationRelationship } from './did-document.js';
import { DidResolutionError } from './did-resolution-error.js';
import { verificationMethodJwk, type PublicKeyEncoding } from './public-key-encoding.js';

const absolute = (did: string, ref: string): string => (ref.startsWith('#') ? `${did}${ref}` : ref);

/**
 * Picks the verification method a signature claims (`kid`, absolute or `#fragment`), or the only
 * one of the relationship when there is no kid. The method must be authorized for `purpose`.
 */
export function selectVerificationMethod(doc: DidDocument, kid: string | undefined, purpose: VerificationRelationship, preferredEncoding?: PublicKeyEncoding): ResolvedDidKey {
  const methods = new Map<string, VerificationMethod>();
  for (const vm of doc.verificationMethod ?? []) if (typeof vm?.id === 'string') methods.set(absolute(doc.id, vm.id), vm);
  const authorized = new Set<string>();
  for (const entry of doc[purpose] ?? []) {
    if (typeof entry === 'string') authorized.add(absolute(doc.id, entry));
    else if (typeof entry?.id === 'string') {
      methods.set(absolute(doc.id, entry.id), entry);
      authorized.add(absolute(doc.id, entry.id));
    }
  }
  let id: string;
  if (kid !== undefined) {
    id = absolute(doc.id, kid);
    if (!methods.has(id)) throw new DidResolutionError('did.key_not_found', 'The DID document has no verification method with the given kid');
    if (!authorized.has(id)) throw new DidResolutionError('did.key_not_found', `The verification method is not authorized for ${purpose}`);
  } else {
    if (authorized.size !== 1) throw new DidResolutionError('did.key_not_found', `The signature has no kid and the DID document does not have exactly one ${purpose} method`);
    id = [...authorized][0]!;
  }
  return { did: doc.id, keyId: id, jwk: verificationMethodJwk(methods.get(id), preferredEncoding) };
}
