import type { JWK } from 'jose';
import { DidResolutionError } from '../did/did-resolution-error.js';
import { PolicyFailure } from '../verifier/policy-failure.js';
import type { VerifierErrorCode } from '../verifier/verifier-error-codes.js';
import { isDataIntegrityCryptosuite, usesRdfcCanonize } from './cryptosuites.js';
import { dataIntegrityLibraries, type Cryptosuite, type JsigsVerifyResult } from './data-integrity-libraries.js';
import { measureDocument, type DocumentLimits } from './document-limits.js';
import { offlineDocumentLoader, type LoaderRecord, type ResolveDid } from './offline-document-loader.js';

/** Everything a Data Integrity verification needs besides the document. */
export interface DataIntegrityEnvironment {
  /** Bundled plus operator-added JSON-LD contexts, by URL. */
  contexts: ReadonlyMap<string, unknown>;
  /** The cryptosuites accepted. */
  cryptosuites: ReadonlySet<string>;
  limits: DocumentLimits;
  /** One deadline for the RDFC-1.0 canonicalization of one proof's document and options. */
  canonicalizationTimeoutMs: number;
  resolveDid: ResolveDid;
  signal: AbortSignal;
  /** Epoch milliseconds. */
  now: number;
  skewMs: number;
  /** Documents already measured against the limits, their contexts checked (a presentation's credentials, say). */
  measured?: WeakSet<object>;
}

/** The proof purpose a document must carry: credentials `assertionMethod`, presentations `authentication`. */
export type ExpectedPurpose = { term: 'assertionMethod' } | { term: 'authentication'; challenge: string; domain: string };

export interface VerifiedProof {
  /** The DID whose document authorizes the verification method for the purpose. */
  controller: string;
  verificationMethod: string;
  cryptosuites: string[];
  /** The key as JWK when the verification method has one (Multikey BLS12-381 keys do not). */
  publicKeyJwk?: JWK;
}

/** Codes of the failures whose meaning depends on whether the document is a credential or the holder's presentation. */
interface FailureCodes {
  signature: VerifierErrorCode;
  challenge: VerifierErrorCode;
  domain: VerifierErrorCode;
}
const CREDENTIAL_CODES: FailureCodes = { signature: 'proof.signature_invalid', challenge: 'data_integrity.proof_invalid', domain: 'data_integrity.proof_invalid' };
const PRESENTATION_CODES: FailureCodes = { signature: 'holder_binding.signature_invalid', challenge: 'holder_binding.nonce_mismatch', domain: 'holder_binding.aud_mismatch' };

const MAX_PROOFS = 4;
const LIMIT_MESSAGE = /Maximum deep iterations exceeded|Abort signal received/;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const fail = (code: VerifierErrorCode, detail?: string) => new PolicyFailure(code, detail);

/** Every error in a library's error tree: arrays, `cause` and jsonld's `details.cause`. */
function* errorTree(error: unknown, depth = 0): Generator<unknown> {
  if (depth > 8 || error === undefined || error === null) return;
  if (Array.isArray(error)) {
    for (const e of error) yield* errorTree(e, depth + 1);
    return;
  }
  yield error;
  const e = error as { cause?: unknown; details?: { cause?: unknown } };
  yield* errorTree(e.cause, depth + 1);
  yield* errorTree(e.details?.cause, depth + 1);
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : typeof error === 'string' ? error : '');

/** The proofs of a document, checked for what can be decided without cryptography. */
function checkProofs(document: Record<string, unknown>, purpose: ExpectedPurpose, env: DataIntegrityEnvironment, codes: FailureCodes): Record<string, unknown>[] {
  const proofs = Array.isArray(document.proof) ? document.proof : document.proof === undefined ? [] : [document.proof];
  if (proofs.length === 0) throw fail('data_integrity.proof_invalid', 'The document has no proof');
  if (proofs.length > MAX_PROOFS) throw fail('data_integrity.limit_exceeded', `The document has more than ${MAX_PROOFS} proofs`);
  for (const proof of proofs) {
    if (!isRecord(proof)) throw fail('data_integrity.proof_invalid', 'A proof is not a JSON object');
    if (proof.type !== 'DataIntegrityProof') throw fail('data_integrity.cryptosuite_unsupported', `Proofs of type ${typeof proof.type === 'string' ? JSON.stringify(proof.type.slice(0, 64)) : '(none)'} are not verified; only DataIntegrityProof is`);
    if (!isDataIntegrityCryptosuite(proof.cryptosuite) || !env.cryptosuites.has(proof.cryptosuite)) {
      throw fail('data_integrity.cryptosuite_unsupported', `The cryptosuite ${typeof proof.cryptosuite === 'string' ? JSON.stringify(proof.cryptosuite.slice(0, 64)) : '(none)'} is not accepted`);
    }
    // Data Integrity 1.0 proof chains: a proof over the document and the proofs it names. The
    // libraries verify each proof over the document alone, so a chain would read as a bad signature.
    if (proof.previousProof !== undefined) throw fail('data_integrity.proof_chain_unsupported', 'Proof chains (previousProof) are not verified; proof sets (independent proofs) are');
    if (proof.proofPurpose !== purpose.term) throw fail(purpose.term === 'authentication' ? 'holder_binding.invalid' : 'data_integrity.proof_invalid', `The proof purpose must be ${purpose.term}`);
    if (typeof proof.verificationMethod !== 'string' && !(isRecord(proof.verificationMethod) && typeof proof.verificationMethod.id === 'string')) {
      throw fail('data_integrity.proof_invalid', 'The proof has no verificationMethod');
    }
    if (proof.expires !== undefined) {
      const expires = typeof proof.expires === 'string' ? Date.parse(proof.expires) : Number.NaN;
      if (Number.isNaN(expires)) throw fail('data_integrity.proof_invalid', 'The proof expires member is not a date');
      if (expires + env.skewMs <= env.now) throw fail(purpose.term === 'authentication' ? 'holder_binding.expired' : 'data_integrity.proof_invalid', 'The proof has expired');
    }
    if (purpose.term === 'authentication') {
      // Checked here for a stable code; the library's purpose checks them again.
      if (proof.challenge !== purpose.challenge) throw fail(codes.challenge);
      const domain = proof.domain;
      if (!(domain === purpose.domain || (Array.isArray(domain) && domain.includes(purpose.domain)))) throw fail(codes.domain);
    }
  }
  return proofs as Record<string, unknown>[];
}

/**
 * RDFC-1.0 with the work bounded: linear deep iterations, and a deadline beside the caller's
 * signal. rdf-canonize only reads `aborted` (and `reason`) of its signal, between permutations: a
 * getter over the clock costs nothing per call, where a timer per canonicalization would not.
 */
function bounded(cryptosuite: Cryptosuite, env: DataIntegrityEnvironment): Cryptosuite {
  if (!usesRdfcCanonize(cryptosuite.name)) return cryptosuite;
  return {
    ...cryptosuite,
    canonize: (input, options) => {
      const deadline = performance.now() + env.canonicalizationTimeoutMs;
      const signal = {
        get aborted() {
          return env.signal.aborted || performance.now() > deadline;
        },
        reason: 'canonicalization deadline',
      };
      return cryptosuite.canonize(input, { ...options, maxWorkFactor: 1, signal });
    },
  };
}

/** The policy failure a failed library verification stands for, most specific first. */
function failureOf(result: JsigsVerifyResult, record: LoaderRecord, codes: FailureCodes): PolicyFailure {
  if (record.context !== undefined) return fail('data_integrity.context_unknown', `The context ${JSON.stringify(record.context.slice(0, 200))} is neither bundled nor configured`);
  if (record.did instanceof DidResolutionError) return fail(record.did.code, record.did.message);
  if (record.did instanceof PolicyFailure) return record.did;
  const errors = [...errorTree(result.error), ...(result.results ?? []).flatMap((r) => [...errorTree(r.error)])];
  if (errors.some((e) => LIMIT_MESSAGE.test(messageOf(e)))) return fail('data_integrity.limit_exceeded', 'Canonicalizing the document needs more work than allowed');
  const jsonld = errors.find((e) => typeof (e as { name?: unknown }).name === 'string' && (e as { name: string }).name.startsWith('jsonld.'));
  if (jsonld) {
    const details = (jsonld as { details?: { code?: unknown; event?: { code?: unknown } } }).details;
    const code = details?.event?.code ?? details?.code;
    return fail('data_integrity.document_invalid', `JSON-LD processing failed${typeof code === 'string' ? ` (${code})` : ''}`);
  }
  if (record.did !== undefined) return fail('did.resolution_failed', 'The verification method could not be resolved');
  const purposeFailed = (result.results ?? []).some((r) => r.purposeResult !== undefined && !r.purposeResult.valid);
  if (purposeFailed) return fail('did.key_not_found', 'The verification method is not authorized for the proof purpose by its DID document');
  if (errors.some((e) => messageOf(e) === 'Invalid signature.')) return fail(codes.signature);
  if ((result.results ?? []).length === 0) return fail('data_integrity.proof_invalid', 'No proof matched the expected purpose and cryptosuite');
  return fail(codes.signature, 'The proof could not be verified');
}

/** The document within the limits, and every context it names bundled or configured. */
export function checkDocument(document: unknown, env: Pick<DataIntegrityEnvironment, 'limits' | 'contexts'>): void {
  for (const url of measureDocument(document, env.limits).contexts) {
    if (!env.contexts.has(url)) throw fail('data_integrity.context_unknown', `The context ${JSON.stringify(url.slice(0, 200))} is neither bundled nor configured`);
  }
}

/**
 * Verifies every proof of a Data Integrity document with jsonld-signatures and the
 * cryptosuite's maintained implementation: contexts only from the fixed set, verification
 * methods through DID resolution, RDFC-1.0 bounded. All proofs must verify. Throws PolicyFailure.
 */
export async function verifyDataIntegrityProof(document: Record<string, unknown>, purpose: ExpectedPurpose, env: DataIntegrityEnvironment): Promise<VerifiedProof> {
  const codes = purpose.term === 'authentication' ? PRESENTATION_CODES : CREDENTIAL_CODES;
  const proofs = checkProofs(document, purpose, env, codes);
  if (!env.measured?.has(document)) checkDocument(document, env);
  const libraries = await dataIntegrityLibraries();
  const names = [...new Set(proofs.map((p) => p.cryptosuite as string))];
  const suites = names.map((name) => libraries.suite(bounded(libraries.cryptosuites[name]!, env)));
  const record: LoaderRecord = { keys: new Map() };
  const documentLoader = offlineDocumentLoader(env.contexts, env.resolveDid, record);
  const libraryPurpose = purpose.term === 'authentication' ? libraries.authenticationPurpose({ challenge: purpose.challenge, domain: purpose.domain }) : libraries.assertionPurpose();
  const result = await libraries.verify(document, { suite: suites, purpose: libraryPurpose, documentLoader });
  env.signal.throwIfAborted();
  const results = result.results ?? [];
  if (!result.verified || results.length !== proofs.length || !results.every((r) => r.verified)) throw failureOf(result, record, codes);
  const vm = results[0]!.verificationMethod ?? {};
  const controllers = new Set(results.map((r) => r.verificationMethod?.controller));
  if (controllers.size !== 1) throw fail('proof.issuer_mismatch', 'The proofs of the document are made by different controllers');
  const publicKeyJwk = record.keys.get(String(vm.id));
  return { controller: String(vm.controller), verificationMethod: String(vm.id), cryptosuites: names, ...(publicKeyJwk ? { publicKeyJwk } : {}) };
}
