import type { JWK } from 'jose';
import type { DidDocument, VerificationMethod } from '../did/did-document.js';
import { DidResolutionError } from '../did/did-resolution-error.js';
import { parseDidUrl } from '../did/parse-did-url.js';
import { verificationMethodJwk } from '../did/public-key-encoding.js';
import { ContextRefused } from './context-refused.js';
import type { DocumentLoader, RemoteDocument } from './data-integrity-libraries.js';

/** DID documents come from the verifier's DID resolution (did:key, did:jwk, did:web, a resolver). */
export type ResolveDid = (did: string) => Promise<DidDocument>;

/** What the loader saw while one document was verified (the library wraps its errors). */
export interface LoaderRecord {
  /** The first context URL refused. */
  context?: string;
  /** The DID resolution failure, kept as thrown so its code survives the library's wrapping. */
  did?: unknown;
  /** The key of each verification method handed over, as JWK (none for BLS12-381 keys). */
  keys: Map<string, JWK | undefined>;
}

const DID_CONTEXT_V1 = 'https://www.w3.org/ns/did/v1';
/** Keys the Multikey libraries of the suites read from publicKeyMultibase. */
const MULTIKEY_KINDS = new Set(['OKP/Ed25519', 'EC/P-256', 'EC/P-384']);
/** bls12_381-g2-pub multibase keys (z + base58 of 0xeb 0x01 …) start with zUC7. */
const isBls12381 = (value: unknown): boolean => typeof value === 'string' && value.startsWith('zUC7');
const absolute = (did: string, ref: string): string => (ref.startsWith('#') ? `${did}${ref}` : ref);
const remote = (url: string, document: unknown): RemoteDocument => ({ contextUrl: null, documentUrl: url, document });

/**
 * The verification method with `id` as the cryptosuites read it: its key is first checked by the
 * verifier's DID code (publicKeyJwk, publicKeyMultibase, publicKeyBase58 → JWK), then handed over
 * as a Multikey when it has a multibase form (BLS12-381 keys have no JWK form at all), else as
 * that JWK. Its controller is the DID whose document lists it, as for JOSE signatures.
 */
function verificationMethodDocument(doc: DidDocument, id: string, keys: LoaderRecord['keys']): Record<string, unknown> | undefined {
  const candidates: unknown[] = [...(doc.verificationMethod ?? []), ...(doc.assertionMethod ?? []), ...(doc.authentication ?? [])];
  const vm = candidates.find((c): c is VerificationMethod => typeof c === 'object' && c !== null && typeof (c as VerificationMethod).id === 'string' && absolute(doc.id, (c as VerificationMethod).id) === id);
  if (!vm) return undefined;
  const jwk = vm.type === 'Multikey' && isBls12381(vm.publicKeyMultibase) ? undefined : verificationMethodJwk(vm);
  keys.set(id, jwk);
  // The multibase form when there is one (what the suites' key libraries import fastest); the JWK checked above otherwise.
  if (typeof vm.publicKeyMultibase === 'string' && (jwk === undefined || MULTIKEY_KINDS.has(`${jwk.kty}/${jwk.crv}`))) return { id, type: 'Multikey', controller: doc.id, publicKeyMultibase: vm.publicKeyMultibase };
  return { id, type: 'JsonWebKey', controller: doc.id, publicKeyJwk: jwk };
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
 * else. An unknown URL is refused and recorded in `record`, never fetched.
 */
export function offlineDocumentLoader(contexts: ReadonlyMap<string, unknown>, resolveDid: ResolveDid, record: LoaderRecord): DocumentLoader {
  return async (url: string) => {
    const context = contexts.get(url);
    if (context !== undefined) return remote(url, context);
    if (url.startsWith('did:')) {
      try {
        const { did, fragment } = parseDidUrl(url);
        const doc = await resolveDid(did);
        if (fragment === undefined) return remote(url, controllerDocument(doc));
        const vm = verificationMethodDocument(doc, url, record.keys);
        if (vm === undefined) throw new DidResolutionError('did.key_not_found', 'The DID document has no verification method with the id the proof names');
        return remote(url, vm);
      } catch (error) {
        record.did ??= error;
        throw error;
      }
    }
    record.context ??= url;
    throw new ContextRefused(url);
  };
}
