import type { DidDocument, VerificationMethod } from '../did/did-document.js';
import { DidResolutionError } from '../did/did-resolution-error.js';
import { parseDidUrl } from '../did/parse-did-url.js';
import { verificationMethodJwk } from '../did/public-key-encoding.js';
import { ContextRefused } from './context-refused.js';
import type { DocumentLoader, RemoteDocument } from './data-integrity-libraries.js';

/** DID documents come from the verifier's DID resolution (did:key, did:jwk, did:web, a resolver). */
export type ResolveDid = (did: string) => Promise<DidDocument>;

/** What the loader was refused while one document was verified (the library wraps its errors). */
export interface LoaderRefusals {
  context?: string;
  /** The DID resolution failure, kept as thrown so its code survives the library's wrapping. */
  did?: unknown;
}

const DID_CONTEXT_V1 = 'https://www.w3.org/ns/did/v1';
const absolute = (did: string, ref: string): string => (ref.startsWith('#') ? `${did}${ref}` : ref);
const remote = (url: string, document: unknown): RemoteDocument => ({ contextUrl: null, documentUrl: url, document });

/**
 * The verification method with `id` as the cryptosuites read it: a Multikey stays one (BLS12-381
 * keys have no JWK form), every other key is handed over as the JWK the verifier's DID code
 * derives (publicKeyJwk, publicKeyMultibase, publicKeyBase58). Its controller is the DID whose
 * document lists it, as for JOSE signatures.
 */
function verificationMethodDocument(doc: DidDocument, id: string): Record<string, unknown> | undefined {
  const candidates: unknown[] = [...(doc.verificationMethod ?? []), ...(doc.assertionMethod ?? []), ...(doc.authentication ?? [])];
  const vm = candidates.find((c): c is VerificationMethod => typeof c === 'object' && c !== null && typeof (c as VerificationMethod).id === 'string' && absolute(doc.id, (c as VerificationMethod).id) === id);
  if (!vm) return undefined;
  if (vm.type === 'Multikey' && typeof vm.publicKeyMultibase === 'string') return { id, type: 'Multikey', controller: doc.id, publicKeyMultibase: vm.publicKeyMultibase };
  return { id, type: 'JsonWebKey', controller: doc.id, publicKeyJwk: verificationMethodJwk(vm) };
}

/**
 * The controller document the proof purpose checks: only the verification relationships, with
 * absolute ids, under the DID context (which the library then reads without framing or loading).
 */
function controllerDocument(doc: DidDocument): Record<string, unknown> {
  const ids = (entries: (string | VerificationMethod)[] | undefined) =>
    (entries ?? []).flatMap((e) => (typeof e === 'string' ? [absolute(doc.id, e)] : typeof e?.id === 'string' ? [absolute(doc.id, e.id)] : []));
  return { '@context': DID_CONTEXT_V1, id: doc.id, assertionMethod: ids(doc.assertionMethod), authentication: ids(doc.authentication) };
}

/**
 * The document loader of one verification: JSON-LD contexts from the fixed set (bundled plus
 * operator-added), DID documents and verification methods through DID resolution, and nothing
 * else. An unknown URL is refused and recorded in `refusals`, never fetched.
 */
export function offlineDocumentLoader(contexts: ReadonlyMap<string, unknown>, resolveDid: ResolveDid, refusals: LoaderRefusals): DocumentLoader {
  return async (url: string) => {
    const context = contexts.get(url);
    if (context !== undefined) return remote(url, context);
    if (url.startsWith('did:')) {
      try {
        const { did, fragment } = parseDidUrl(url);
        const doc = await resolveDid(did);
        if (fragment === undefined) return remote(url, controllerDocument(doc));
        const vm = verificationMethodDocument(doc, url);
        if (vm === undefined) throw new DidResolutionError('did.key_not_found', 'The DID document has no verification method with the id the proof names');
        return remote(url, vm);
      } catch (error) {
        refusals.did ??= error;
        throw error;
      }
    }
    refusals.context ??= url;
    throw new ContextRefused(url);
  };
}
