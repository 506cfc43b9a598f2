import type { PolicyResult } from '@vp-authorizer/core';
import { isRecord } from '../encoding.js';
import { checkIssuerMatchesCertificate } from '../issuer-matches-certificate.js';
import { checkAlgorithm, jwsHeader, verifyJws } from '../jws.js';
import { passed, PolicyFailure, runPolicy } from '../policy-failure.js';
import { resolveIssuerKey } from '../resolve-signer-key.js';
import { checkNotAfter, checkNotBefore, timeOf } from '../time-checks.js';
import type { VerifierContext } from '../verifier-context.js';
import { checkW3cStatus } from '../ldp/check-w3c-status.js';
import { checkJwtDataModel, unverifiedPayload } from './jwt-data-model.js';

export interface VerifiedJwtCredential {
  payload: Record<string, unknown>;
  /** The VC object: `vc` claim (VCDM 1.1) or the payload itself (VCDM 2.0). */
  credential: Record<string, unknown>;
  dataModel: '1.1' | '2.0';
}

const idOf = (value: unknown): unknown => (isRecord(value) ? value.id : value);

/**
 * The one issuer of the credential: `iss` and the VC `issuer` (id form) must agree when both are
 * present, so a trusted name in `issuer` can never ride on a signature by the `iss` key.
 */
function issuerOf(payload: Record<string, unknown>, credential: Record<string, unknown>): unknown {
  const claimed = idOf(credential.issuer);
  if (payload.iss !== undefined && claimed !== undefined && payload.iss !== claimed) throw new PolicyFailure('proof.issuer_mismatch', 'The JWT iss differs from the credential issuer');
  return payload.iss ?? claimed;
}

/** Earliest / latest instant among the claims that are present (the stricter bound wins). */
const latest = (values: (number | undefined)[]) => values.filter((v): v is number => v !== undefined).reduce<number | undefined>((a, b) => (a === undefined ? b : Math.max(a, b)), undefined);
const earliest = (values: (number | undefined)[]) => values.filter((v): v is number => v !== undefined).reduce<number | undefined>((a, b) => (a === undefined ? b : Math.min(a, b)), undefined);

/**
 * A JWT-secured VC (VCDM 1.1 `vc` claim or VCDM 2.0 `vc+jwt`) in the data model the format policy
 * parsed: issuer signature via x5c or DID, issuer binding, then nbf/exp (1.1, with
 * issuanceDate/expirationDate) or validFrom/validUntil (2.0).
 */
export async function verifyJwtCredential(jwt: string, dataModel: '1.1' | '2.0', path: (string | number)[], ctx: VerifierContext, options: { checkStatus?: boolean } = {}): Promise<{ results: PolicyResult[]; verified?: VerifiedJwtCredential }> {
  let verified: VerifiedJwtCredential | undefined;
  let issuer: unknown;
  const proof = await runPolicy(path, 'proof', async () => {
    const header = jwsHeader(jwt, 'format.malformed');
    const alg = checkAlgorithm(header.alg, ctx.allowedAlgs, 'credential');
    const unverified = unverifiedPayload(jwt);
    checkJwtDataModel(header, unverified, 'vc', dataModel);
    const unverifiedCredential = dataModel === '2.0' ? unverified : isRecord(unverified.vc) ? unverified.vc : {};
    const types = Array.isArray(unverifiedCredential.type) ? unverifiedCredential.type.filter((t): t is string => typeof t === 'string') : typeof unverifiedCredential.type === 'string' ? [unverifiedCredential.type] : [];
    const signer = await resolveIssuerKey(header, issuerOf(unverified, unverifiedCredential), ctx, false, { credentialTypes: types });
    const payload = await verifyJws(jwt, signer.key, alg, 'proof.signature_invalid', 'credential');
    const credential = dataModel === '2.0' ? payload : payload.vc;
    if (!isRecord(credential)) throw new PolicyFailure('proof.claim_missing', 'The JWT has no vc claim');
    issuer = issuerOf(payload, credential);
    const bound = signer.x5c ? checkIssuerMatchesCertificate(issuer, signer.x5c.leaf) : {};
    verified = { payload, credential, dataModel };
    return { issuer, dataModel, alg, ...signer.data, ...bound };
  });
  if (!verified) return { results: [proof] };
  const { payload, credential } = verified;
  const skew = ctx.options.clockSkewMs;
  const results = [
    proof,
    await runPolicy(path, 'notBefore', () => {
      const start = latest([timeOf(payload.nbf, 'nbf'), timeOf(dataModel === '2.0' ? credential.validFrom : credential.issuanceDate, dataModel === '2.0' ? 'validFrom' : 'issuanceDate')]);
      return checkNotBefore(start, ctx.now, skew, 'validFrom');
    }),
    await runPolicy(path, 'notAfter', () => {
      const end = earliest([timeOf(payload.exp, 'exp'), timeOf(dataModel === '2.0' ? credential.validUntil : credential.expirationDate, dataModel === '2.0' ? 'validUntil' : 'expirationDate')]);
      return checkNotAfter(end, ctx.now, skew, 'validUntil');
    }),
    credential.credentialStatus === undefined
      ? passed(path, 'status', { checked: false, reason: 'the credential has no credentialStatus' })
      : options.checkStatus === false
        ? passed(path, 'status', { checked: false, reason: 'the status of a status list credential is not checked' })
        : await runPolicy(path, 'status', () => checkW3cStatus(credential, String(issuer), ctx)),
  ];
  return { results, verified };
}
