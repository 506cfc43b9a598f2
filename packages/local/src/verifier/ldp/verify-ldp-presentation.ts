import type { ParsedLdp, PolicyResult, VerifyInput } from '@vp-authorizer/core';
import { CREDENTIALS_V1_URL, CREDENTIALS_V2_URL } from '../../data-integrity/bundled-contexts.js';
import { checkDocument, verifyDataIntegrityProof, type DataIntegrityEnvironment, type VerifiedProof } from '../../data-integrity/verify-data-integrity-proof.js';
import { isRecord } from '../encoding.js';
import { failed, passed, PolicyFailure, runPolicy } from '../policy-failure.js';
import { unsupportedTransactionData } from '../unsupported-transaction-data.js';
import type { VerifierContext } from '../verifier-context.js';
import { dataIntegrityEnvironment } from './data-integrity-environment.js';
import { checkAlgorithmAllowed, verifyLdpCredential, type VerifiedLdpCredential } from './verify-ldp-credential.js';

/** Credentials one presentation may embed; each costs a canonicalization. */
const MAX_CREDENTIALS = 16;

const typesOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);
const holderOf = (value: unknown): unknown => (isRecord(value) ? value.id : value);

/**
 * The holder's proof over the presentation (OpenID4VP 1.0 B.1.3.2): purpose `authentication`,
 * `challenge` the request nonce, `domain` the client id (or `origin:<origin>` over the DC API),
 * made by a key of the holder DID, which must be the presentation's `holder` when it names one.
 */
async function verifyHolderProof(vp: Record<string, unknown>, env: DataIntegrityEnvironment, ctx: VerifierContext): Promise<VerifiedProof> {
  const first = typesOf(vp['@context'])[0];
  if (first !== CREDENTIALS_V2_URL && first !== CREDENTIALS_V1_URL) throw new PolicyFailure('data_integrity.document_invalid', 'The first @context of a presentation must be the VCDM 1.1 or 2.0 context');
  const proof = await verifyDataIntegrityProof(vp, { term: 'authentication', challenge: ctx.nonce, domain: ctx.audience }, env);
  checkAlgorithmAllowed(proof, ctx);
  const holder = holderOf(vp.holder);
  if (holder !== undefined && holder !== proof.controller) throw new PolicyFailure('vp.holder_mismatch');
  return proof;
}

/**
 * The credential is bound to the holder only when it names that holder: every
 * `credentialSubject.id` must be the DID that signed the presentation. A credential naming
 * nobody is a bearer credential and fails, since the query asked for holder binding.
 */
function checkSubjectBinding(vc: VerifiedLdpCredential, holder: string): Record<string, unknown> {
  const subjects = typesOf(vc.credential.credentialSubject).map((s) => (isRecord(s) ? s.id : undefined));
  if (subjects.length === 0 || subjects.some((id) => id === undefined)) throw new PolicyFailure('holder_binding.subject_mismatch', 'The credential names no subject that could be bound to the holder');
  if (subjects.some((id) => id !== holder)) throw new PolicyFailure('holder_binding.subject_mismatch', 'The credential subject is not the DID that signed the presentation');
  return { method: 'subject', holder };
}

async function verifyPresentation(presentation: ParsedLdp, vp: Record<string, unknown>, input: VerifyInput, env: DataIntegrityEnvironment, ctx: VerifierContext): Promise<PolicyResult[]> {
  const path = presentation.path;
  let holder: VerifiedProof | undefined;
  const holderBinding = await runPolicy(path, 'holderBinding', async () => {
    holder = await verifyHolderProof(vp, env, ctx);
    return { method: 'data-integrity', cryptosuite: holder.cryptosuites.join(' '), holder: holder.controller, verificationMethod: holder.verificationMethod };
  });
  const txFailure = unsupportedTransactionData(input.transactionData, presentation.queryId, path, 'Data Integrity VP');
  const results = txFailure ? [holderBinding, txFailure] : [holderBinding];
  if (!holder) return results;
  const entries = vp.verifiableCredential === undefined ? [] : typesOf(vp.verifiableCredential);
  if (entries.length === 0) return [...results, failed(path, 'proof', 'proof.claim_missing', 'The presentation contains no credentials')];
  if (entries.length > MAX_CREDENTIALS) return [...results, failed(path, 'format', 'data_integrity.limit_exceeded', `A presentation may embed at most ${MAX_CREDENTIALS} credentials`)];
  const bindingRequired = (input.holderBindingRequired[presentation.queryId] ?? true) || ctx.haip;
  for (const [i, entry] of entries.entries()) {
    const vcPath = [...path, 'verifiableCredential', i];
    if (!isRecord(entry)) {
      results.push(failed(vcPath, 'format', 'format.unsupported', 'Only Data Integrity secured credentials (JSON objects) are verified inside a Data Integrity presentation'));
      continue;
    }
    const { results: vcResults, verified } = await verifyLdpCredential(entry, vcPath, env, ctx);
    results.push(...vcResults);
    if (!verified) continue;
    const did = holder.controller;
    results.push(bindingRequired ? await runPolicy(vcPath, 'holderBinding', () => checkSubjectBinding(verified, did)) : passed(vcPath, 'holderBinding', { checked: false, reason: 'the query waived holder binding' }));
  }
  return results;
}

/**
 * `ldp_vc` / `ldp_vp`: a Data Integrity secured presentation (holder proof, then every embedded
 * credential at `[...path, 'verifiableCredential', i]`), or a bare credential where the query
 * waived holder binding. The whole document is measured against the limits before any JSON-LD work.
 */
export async function verifyLdp(presentation: ParsedLdp, input: VerifyInput, ctx: VerifierContext): Promise<PolicyResult[]> {
  const path = presentation.path;
  const raw = presentation.raw;
  const env = dataIntegrityEnvironment(ctx);
  try {
    checkDocument(raw, env);
  } catch (error) {
    // Refused before any proof is looked at: too large, or naming a context the verifier does not have.
    if (error instanceof PolicyFailure) return [failed(path, 'format', error.code, error.detail)];
    throw error;
  }
  // Measured as a whole: its parts (the embedded credentials) need no second walk.
  env.measured = new WeakSet([raw, ...typesOf(raw.verifiableCredential).filter(isRecord)]);
  const types = typesOf(raw.type);
  if (types.includes('VerifiablePresentation')) return verifyPresentation(presentation, raw, input, env, ctx);
  if (!types.includes('VerifiableCredential')) return [failed(path, 'format', 'format.malformed', 'A Data Integrity presentation must be a VerifiablePresentation or a VerifiableCredential')];
  const { results } = await verifyLdpCredential(raw, path, env, ctx);
  const required = (input.holderBindingRequired[presentation.queryId] ?? true) || ctx.haip;
  results.push(required ? failed(path, 'holderBinding', 'holder_binding.missing', 'A plain credential was presented where a VP with holder binding is required') : passed(path, 'holderBinding', { method: 'none', required: false }));
  const txFailure = unsupportedTransactionData(input.transactionData, presentation.queryId, path, 'Data Integrity VC');
  if (txFailure) results.push(txFailure);
  return results;
}
