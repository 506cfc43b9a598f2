import type { KeyObject } from 'node:crypto';
import type { ParsedJwtVcPresentation, ParsedJwtVp, PolicyResult, VerifyInput } from '@vp-authorizer/core';
import { isRecord } from '../encoding.js';
import { checkAlgorithm, jwsHeader, verifyJws } from '../jws.js';
import { failed, passed, PolicyFailure, runPolicy } from '../policy-failure.js';
import { resolveDidSignerKey } from '../resolve-signer-key.js';
import { unsupportedTransactionData } from '../unsupported-transaction-data.js';
import type { VerifierContext } from '../verifier-context.js';
import { checkSubjectBinding } from './check-subject-binding.js';
import { checkJwtDataModel, unverifiedPayload } from './jwt-data-model.js';
import { verifyJwtCredential } from './verify-jwt-credential.js';

/** VC-JOSE-COSE enveloped credential id, as the format policy reads it. */
const ENVELOPED_JWT = /^data:application\/(?:vc\+jwt|vc\+ld\+json\+jwt),(.+)$/;

/** VC JWTs of a verified VP: 1.1 strings, 2.0 EnvelopedVerifiableCredential data URLs; undefined for anything else. */
function embeddedCredentials(vp: Record<string, unknown>): (string | undefined)[] {
  const list = vp.verifiableCredential;
  const items = Array.isArray(list) ? list : list === undefined ? [] : [list];
  return items.map((item) => (typeof item === 'string' ? item : isRecord(item) && typeof item.id === 'string' ? ENVELOPED_JWT.exec(item.id)?.[1] : undefined));
}

const holderOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : isRecord(value) && typeof value.id === 'string' ? value.id : undefined);

interface HolderProof {
  vp: Record<string, unknown>;
  holder: { did: string; key: KeyObject };
  data: Record<string, unknown>;
}

/** VP JWT signature by the holder DID, nonce and aud; returns the verified presentation object. */
async function verifyHolderProof(jwt: string, dataModel: '1.1' | '2.0', ctx: VerifierContext): Promise<HolderProof> {
  const header = jwsHeader(jwt, 'holder_binding.invalid');
  const alg = checkAlgorithm(header.alg, ctx.allowedAlgs, 'presentation');
  const unverified = unverifiedPayload(jwt);
  const unverifiedVp = dataModel === '2.0' ? unverified : isRecord(unverified.vp) ? unverified.vp : {};
  const holder = holderOf(unverified.iss) ?? holderOf(unverifiedVp.holder);
  const kid = typeof header.kid === 'string' ? header.kid : undefined;
  if (!holder?.startsWith('did:') && !kid?.startsWith('did:')) throw new PolicyFailure('holder_binding.key_missing', 'The VP signer is identified neither by a DID iss/holder nor by a DID kid');
  const signer = await resolveDidSignerKey({ ...(holder?.startsWith('did:') ? { did: holder } : {}), ...(kid ? { kid } : {}) }, 'authentication', ctx);
  const payload = await verifyJws(jwt, signer.key, alg, 'holder_binding.signature_invalid', 'presentation');
  if (payload.nonce !== ctx.nonce) throw new PolicyFailure('holder_binding.nonce_mismatch');
  const aud = payload.aud;
  if (!(aud === ctx.audience || (Array.isArray(aud) && aud.includes(ctx.audience)))) throw new PolicyFailure('holder_binding.aud_mismatch');
  const skew = ctx.options.clockSkewMs;
  if (payload.exp !== undefined && (typeof payload.exp !== 'number' || payload.exp * 1000 + skew <= ctx.now)) throw new PolicyFailure('holder_binding.expired');
  if (payload.iat !== undefined && (typeof payload.iat !== 'number' || payload.iat * 1000 > ctx.now + skew)) throw new PolicyFailure('holder_binding.iat_invalid', 'The VP iat lies in the future');
  const vp = dataModel === '2.0' ? payload : payload.vp;
  if (!isRecord(vp)) throw new PolicyFailure('holder_binding.invalid', 'The JWT has no vp claim');
  const did = signer.data.did as string;
  const vpHolder = holderOf(vp.holder);
  if (vpHolder !== undefined && vpHolder !== did) throw new PolicyFailure('vp.holder_mismatch');
  return { vp, holder: { did, key: signer.key }, data: { method: 'vp-jwt', dataModel, alg, holder: did, kid: signer.data.kid } };
}

/** The data model must be the parsed one, and the signed VP must list exactly the parsed credentials. */
function checkSameCredentials(presentation: ParsedJwtVp, vp: Record<string, unknown>): void {
  const signed = embeddedCredentials(vp);
  const parsed = presentation.credentials.map((c) => c.jwt.compact);
  if (signed.length !== parsed.length || signed.some((jwt, i) => jwt !== parsed[i])) {
    throw new PolicyFailure('format.malformed', 'The signed presentation lists other credentials than the format policy parsed');
  }
}

/**
 * JWT VP (`jwt_vc_json` with binding): holder proof at the VP path, then each credential the
 * format policy parsed (and only those) under `[...path, 'verifiableCredential', i]`, including
 * its binding to the holder (`holderBinding`, unless the query waived binding).
 */
export async function verifyJwtVp(presentation: ParsedJwtVp, input: VerifyInput, ctx: VerifierContext): Promise<PolicyResult[]> {
  const path = presentation.path;
  try {
    checkJwtDataModel(jwsHeader(presentation.raw, 'format.malformed'), unverifiedPayload(presentation.raw), 'vp', presentation.dataModel);
  } catch (error) {
    if (error instanceof PolicyFailure) return [failed(path, 'format', error.code, error.detail)];
    throw error;
  }
  let proof: HolderProof | undefined;
  const holderBinding = await runPolicy(path, 'holderBinding', async () => {
    proof = await verifyHolderProof(presentation.raw, presentation.dataModel, ctx);
    return proof.data;
  });
  const txFailure = unsupportedTransactionData(input.transactionData, presentation.queryId, path, 'JWT VP');
  const results = txFailure ? [holderBinding, txFailure] : [holderBinding];
  if (!proof) return results;
  try {
    checkSameCredentials(presentation, proof.vp);
  } catch (error) {
    if (error instanceof PolicyFailure) return [...results, failed(path, 'format', error.code, error.detail)];
    throw error;
  }
  if (presentation.credentials.length === 0) return [...results, failed(path, 'proof', 'proof.claim_missing', 'The presentation contains no credentials')];
  const bindingRequired = (input.holderBindingRequired[presentation.queryId] ?? true) || ctx.haip;
  for (const [i, credential] of presentation.credentials.entries()) {
    const vcPath = [...path, 'verifiableCredential', i];
    const { results: vcResults, verified } = await verifyJwtCredential(credential.jwt.compact, credential.dataModel, vcPath, ctx);
    results.push(...vcResults);
    if (!verified) continue;
    const holder = proof.holder;
    results.push(
      bindingRequired
        ? await runPolicy(vcPath, 'holderBinding', () => checkSubjectBinding(verified, holder))
        : passed(vcPath, 'holderBinding', { checked: false, reason: 'the query waived holder binding' }),
    );
  }
  return results;
}

/** A bare JWT VC (binding not required, VP §B.1): the VC checks, and holder binding only if allowed to be absent. */
export async function verifyJwtVcPresentation(presentation: ParsedJwtVcPresentation, input: VerifyInput, ctx: VerifierContext): Promise<PolicyResult[]> {
  const path = presentation.path;
  const { results } = await verifyJwtCredential(presentation.raw, presentation.dataModel, path, ctx);
  const required = (input.holderBindingRequired[presentation.queryId] ?? true) || ctx.haip;
  results.push(required ? failed(path, 'holderBinding', 'holder_binding.missing', 'A plain credential was presented where a VP with holder binding is required') : passed(path, 'holderBinding', { method: 'none', required: false }));
  const txFailure = unsupportedTransactionData(input.transactionData, presentation.queryId, path, 'JWT VC');
  if (txFailure) results.push(txFailure);
  return results;
}
