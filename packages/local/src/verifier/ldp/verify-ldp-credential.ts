import type { PolicyResult } from '@vp-authorizer/core';
import { CREDENTIALS_V1_URL, CREDENTIALS_V2_URL } from '../../data-integrity/bundled-contexts.js';
import { verifyDataIntegrityProof, type DataIntegrityEnvironment, type VerifiedProof } from '../../data-integrity/verify-data-integrity-proof.js';
import { isRecord } from '../encoding.js';
import { passed, PolicyFailure, runPolicy } from '../policy-failure.js';
import { checkNotAfter, checkNotBefore, timeOf } from '../time-checks.js';
import type { VerifierContext } from '../verifier-context.js';
import { checkW3cStatus } from './check-w3c-status.js';

export interface VerifiedLdpCredential {
  credential: Record<string, unknown>;
  dataModel: '1.1' | '2.0';
  proof: VerifiedProof;
}

const idOf = (value: unknown): unknown => (isRecord(value) ? value.id : value);
const types = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

/** The JOSE name of a verification key, to hold Data Integrity keys to the same allowedAlgs. */
function algorithmOf(proof: VerifiedProof): string | undefined {
  const jwk = proof.publicKeyJwk;
  if (jwk?.crv === 'Ed25519') return 'EdDSA';
  if (jwk?.crv === 'P-256') return 'ES256';
  if (jwk?.crv === 'P-384') return 'ES384';
  return undefined;
}

export function checkAlgorithmAllowed(proof: VerifiedProof, ctx: VerifierContext): string | undefined {
  const alg = algorithmOf(proof);
  if (alg !== undefined && !ctx.allowedAlgs.includes(alg) && !(alg === 'EdDSA' && ctx.allowedAlgs.includes('Ed25519'))) {
    throw new PolicyFailure('proof.algorithm_not_allowed', `The ${alg} key of the proof is not allowed`);
  }
  return alg;
}

/** VCDM 1.1 or 2.0 by the first context; the members each version requires. */
function dataModelOf(credential: Record<string, unknown>): '1.1' | '2.0' {
  const first = types(credential['@context'])[0];
  const dataModel = first === CREDENTIALS_V2_URL ? '2.0' : first === CREDENTIALS_V1_URL ? '1.1' : undefined;
  if (dataModel === undefined) throw new PolicyFailure('data_integrity.document_invalid', 'The first @context of a credential must be the VCDM 1.1 or 2.0 context');
  if (!types(credential.type).includes('VerifiableCredential')) throw new PolicyFailure('data_integrity.document_invalid', 'The credential type does not include VerifiableCredential');
  if (typeof idOf(credential.issuer) !== 'string') throw new PolicyFailure('data_integrity.document_invalid', 'The credential has no issuer id');
  if (credential.credentialSubject === undefined) throw new PolicyFailure('data_integrity.document_invalid', 'The credential has no credentialSubject');
  if (dataModel === '1.1' && credential.issuanceDate === undefined) throw new PolicyFailure('data_integrity.document_invalid', 'A VCDM 1.1 credential must have an issuanceDate');
  return dataModel;
}

/**
 * A Data Integrity secured credential (VCDM 1.1 or 2.0): every proof verified for
 * `assertionMethod` by a key of the issuer DID, then validity period and status, as for JWT VCs.
 */
export async function verifyLdpCredential(credential: Record<string, unknown>, path: (string | number)[], env: DataIntegrityEnvironment, ctx: VerifierContext): Promise<{ results: PolicyResult[]; verified?: VerifiedLdpCredential }> {
  let verified: VerifiedLdpCredential | undefined;
  const proof = await runPolicy(path, 'proof', async () => {
    const dataModel = dataModelOf(credential);
    const proof = await verifyDataIntegrityProof(credential, { term: 'assertionMethod' }, env);
    // The key speaks for its controller only: the issuer must be that DID.
    const issuer = idOf(credential.issuer);
    if (issuer !== proof.controller) throw new PolicyFailure('proof.issuer_mismatch', 'The issuer is not the controller of the verification method');
    const alg = checkAlgorithmAllowed(proof, ctx);
    verified = { credential, dataModel, proof };
    return { issuer, dataModel, cryptosuite: proof.cryptosuites.join(' '), verificationMethod: proof.verificationMethod, ...(alg ? { alg } : {}) };
  });
  if (!verified) return { results: [proof] };
  const { dataModel } = verified;
  const skew = ctx.options.clockSkewMs;
  const results = [
    proof,
    await runPolicy(path, 'notBefore', () =>
      dataModel === '2.0' ? checkNotBefore(timeOf(credential.validFrom, 'validFrom'), ctx.now, skew, 'validFrom') : checkNotBefore(timeOf(credential.issuanceDate, 'issuanceDate'), ctx.now, skew, 'issuanceDate'),
    ),
    await runPolicy(path, 'notAfter', () =>
      dataModel === '2.0' ? checkNotAfter(timeOf(credential.validUntil, 'validUntil'), ctx.now, skew, 'validUntil') : checkNotAfter(timeOf(credential.expirationDate, 'expirationDate'), ctx.now, skew, 'expirationDate'),
    ),
    credential.credentialStatus === undefined ? passed(path, 'status', { checked: false, reason: 'the credential has no credentialStatus' }) : await runPolicy(path, 'status', () => checkW3cStatus(credential, verified!.proof.controller, ctx)),
  ];
  return { results, verified };
}
