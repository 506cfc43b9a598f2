import type { PolicyResult } from '@vp-authorizer/core';
import { isRecord } from '../encoding.js';
import { checkAlgorithm, jwsHeader, verifyJws } from '../jws.js';
import { failed, passed, PolicyFailure, runPolicy } from '../policy-failure.js';
import { resolveIssuerKey } from '../resolve-signer-key.js';
import { checkNotAfter, checkNotBefore, timeOf } from '../time-checks.js';
import type { VerifierContext } from '../verifier-context.js';

export interface VerifiedJwtCredential {
  payload: Record<string, unknown>;
  /** The VC object: `vc` claim (VCDM 1.1) or the payload itself (VCDM 2.0, typ vc+jwt). */
  credential: Record<string, unknown>;
  dataModel: '1.1' | '2.0';
}

function unverifiedPayload(jwt: string): Record<string, unknown> {
  try {
    const payload = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as unknown;
    return isRecord(payload) ? payload : {};
  } catch {
    return {};
  }
}

const issuerOf = (payload: Record<string, unknown>, credential: Record<string, unknown>): unknown => {
  const issuer = payload.iss ?? credential.issuer;
  return isRecord(issuer) ? issuer.id : issuer;
};

/** Earliest / latest instant among the claims that are present (the stricter bound wins). */
const latest = (values: (number | undefined)[]) => values.filter((v): v is number => v !== undefined).reduce<number | undefined>((a, b) => (a === undefined ? b : Math.max(a, b)), undefined);
const earliest = (values: (number | undefined)[]) => values.filter((v): v is number => v !== undefined).reduce<number | undefined>((a, b) => (a === undefined ? b : Math.min(a, b)), undefined);

/**
 * A JWT-secured VC (VCDM 1.1 `vc` claim or VCDM 2.0 `vc+jwt`): issuer signature via x5c or DID,
 * then nbf/exp (1.1, with issuanceDate/expirationDate) or validFrom/validUntil (2.0).
 */
export async function verifyJwtCredential(jwt: string, path: (string | number)[], ctx: VerifierContext): Promise<{ results: PolicyResult[]; verified?: VerifiedJwtCredential }> {
  let verified: VerifiedJwtCredential | undefined;
  const proof = await runPolicy(path, 'proof', async () => {
    const header = jwsHeader(jwt, 'format.malformed');
    const alg = checkAlgorithm(header.alg, ctx.allowedAlgs, 'credential');
    const unverified = unverifiedPayload(jwt);
    const dataModel = header.typ === 'vc+jwt' ? '2.0' : '1.1';
    const unverifiedCredential = dataModel === '2.0' ? unverified : isRecord(unverified.vc) ? unverified.vc : {};
    const signer = await resolveIssuerKey(header, issuerOf(unverified, unverifiedCredential), ctx, false);
    const payload = await verifyJws(jwt, signer.key, alg, 'proof.signature_invalid', 'credential');
    const credential = dataModel === '2.0' ? payload : payload.vc;
    if (!isRecord(credential)) throw new PolicyFailure('proof.claim_missing', 'The JWT has no vc claim');
    verified = { payload, credential, dataModel };
    return { issuer: issuerOf(payload, credential), dataModel, alg, ...signer.data };
  });
  if (!verified) return { results: [proof] };
  const { payload, credential, dataModel } = verified;
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
    // W3C status mechanisms (BitstringStatusList, …) are not implemented: fail closed.
    credential.credentialStatus === undefined
      ? passed(path, 'status', { checked: false, reason: 'the credential has no credentialStatus' })
      : failed(path, 'status', 'status.unsupported', 'W3C credentialStatus mechanisms are not supported by the local verifier'),
  ];
  return { results, verified };
}
