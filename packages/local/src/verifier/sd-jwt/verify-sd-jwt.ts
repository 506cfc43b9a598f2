import type { DecodedJwt, ParsedSdJwt, PolicyResult, SdJwtDisclosure, VerifyInput } from '@vp-authorizer/core';
import { decodedInProcess, SD_JWT_VC_TYPES } from '@vp-authorizer/core/formats';
import { checkTokenStatus } from '../check-status.js';
import { checkIssuerMatchesCertificate } from '../issuer-matches-certificate.js';
import { checkAlgorithm, jwsHeader, tryDecodePayload, verifyJws } from '../jws.js';
import { failed, passed, PolicyFailure, runPolicy } from '../policy-failure.js';
import { resolveIssuerKey, type SignerKey } from '../resolve-signer-key.js';
import { checkNotAfter, checkNotBefore, timeOf } from '../time-checks.js';
import type { VerifierContext } from '../verifier-context.js';
import { checkDisclosures } from './resolve-disclosures.js';
import { transactionDataFor } from './transaction-data.js';
import { verifyKeyBinding } from './verify-key-binding.js';

const TYPS = new Set(SD_JWT_VC_TYPES);

interface Split {
  issuerJwt: string;
  disclosures: string[];
  kbJwt?: string;
  /** `<IssuerJWT>~<D1>~…~<Dn>~`: what sd_hash covers. */
  presented: string;
  /** What core's format policy decoded from these same strings in this process, when it did. */
  decoded?: { issuerJwt: DecodedJwt; disclosures: readonly SdJwtDisclosure[]; kbJwt: DecodedJwt | undefined };
}

/**
 * `<IssuerJWT>~<D1>~…~<Dn>~[<KB-JWT>]`, split from the raw string: the parsed form is untrusted,
 * unless this process's format policy produced it from this very `raw` (then its decoding is
 * reused, and the pieces are the ones it split).
 */
function split(presentation: ParsedSdJwt): Split {
  const decoded = decodedInProcess(presentation);
  if (decoded) {
    // Everything from the decoding, `raw` included: `presentation.raw` is read only once, there.
    const { raw: decodedRaw, issuerJwt, disclosures, kbJwt } = decoded;
    const presented = decodedRaw.slice(0, decodedRaw.lastIndexOf('~') + 1);
    return { issuerJwt: issuerJwt.compact, disclosures: disclosures.map((d) => d.encoded), presented, ...(kbJwt ? { kbJwt: kbJwt.compact } : {}), decoded };
  }
  const raw = presentation.raw;
  const last = raw.lastIndexOf('~');
  if (last < 0) throw new PolicyFailure('format.malformed', 'The SD-JWT has no ~ separator');
  const parts = raw.slice(0, last).split('~');
  const [issuerJwt, ...disclosures] = parts;
  if (!issuerJwt || disclosures.some((d) => d.length === 0)) throw new PolicyFailure('format.malformed', 'The SD-JWT has an empty component');
  const kbJwt = raw.slice(last + 1);
  return { issuerJwt, disclosures, presented: raw.slice(0, last + 1), ...(kbJwt ? { kbJwt } : {}) };
}

interface IssuerCheck {
  payload: Record<string, unknown>;
  data: Record<string, unknown>;
  /** The x5c chain's leaf and anchor (the status list must chain to the same anchor). */
  x5c: SignerKey['x5c'];
}

async function verifyIssuerSigned(parts: Split, ctx: VerifierContext): Promise<IssuerCheck> {
  const header = parts.decoded?.issuerJwt.header ?? jwsHeader(parts.issuerJwt, 'format.malformed');
  if (typeof header.typ !== 'string' || !TYPS.has(header.typ)) throw new PolicyFailure('proof.typ_invalid', 'The issuer JWT typ is not dc+sd-jwt (or vc+sd-jwt)');
  const alg = checkAlgorithm(header.alg, ctx.allowedAlgs, 'issuer JWT');
  // Decoded once: `iss` is read from it unverified only to locate a DID key (the signature
  // decides), and once the signature over these bytes holds it is the verified payload.
  const unverified = parts.decoded ? parts.decoded.issuerJwt.payload : tryDecodePayload(parts.issuerJwt);
  // The unverified vct and iat only choose which listed anchors to try; the signature then decides.
  const subject = { credentialTypes: typeof unverified?.vct === 'string' ? [unverified.vct] : [], ...(typeof unverified?.iat === 'number' ? { issuedAt: unverified.iat * 1000 } : {}) };
  const signer = await resolveIssuerKey(header, unverified?.iss, ctx, ctx.haip, subject);
  const payload = await verifyJws(parts.issuerJwt, signer.key, alg, 'proof.signature_invalid', 'issuer JWT', { header, payload: unverified });
  // Sound disclosures are all the verifier needs; the claims the relying party gets are core's.
  checkDisclosures(payload, parts.disclosures, parts.decoded?.disclosures);
  if (typeof payload.vct !== 'string' || payload.vct.length === 0) throw new PolicyFailure('proof.claim_missing', 'The credential has no vct claim');
  // A DID key was already bound to `iss` in resolveIssuerKey; an https `iss` is bound to the leaf's SANs.
  const bound = signer.x5c ? checkIssuerMatchesCertificate(payload.iss, signer.x5c.leaf) : {};
  return { payload, x5c: signer.x5c, data: { issuer: payload.iss, vct: payload.vct, alg, ...signer.data, ...bound, disclosures: parts.disclosures.length } };
}

/**
 * SD-JWT VC: issuer signature (x5c chain to anchors, or DID outside HAIP), disclosures, nbf/exp,
 * KB-JWT and transaction data, then Token Status List. Results per policy for this presentation.
 */
export async function verifySdJwt(presentation: ParsedSdJwt, input: VerifyInput, ctx: VerifierContext): Promise<PolicyResult[]> {
  const path = presentation.path;
  let parts: Split;
  try {
    parts = split(presentation);
  } catch (error) {
    if (error instanceof PolicyFailure) return [failed(path, 'format', error.code, error.detail)];
    throw error;
  }

  let issuer: IssuerCheck | undefined;
  const proof = await runPolicy(path, 'proof', async () => {
    issuer = await verifyIssuerSigned(parts, ctx);
    return issuer.data;
  });
  if (!issuer) return [proof];
  const { payload, x5c } = issuer;

  const notBefore = await runPolicy(path, 'notBefore', () => checkNotBefore(timeOf(payload.nbf, 'nbf'), ctx.now, ctx.options.clockSkewMs, 'nbf'));
  const notAfter = await runPolicy(path, 'notAfter', () => checkNotAfter(timeOf(payload.exp, 'exp'), ctx.now, ctx.options.clockSkewMs, 'exp'));
  const holderBinding = await runPolicy(path, 'holderBinding', async () => {
    const transactionData = transactionDataFor(input.transactionData, presentation.queryId);
    // HAIP: always required; transaction data can only be confirmed through a KB-JWT.
    const required = (input.holderBindingRequired[presentation.queryId] ?? true) || ctx.haip || transactionData.length > 0;
    if (!parts.kbJwt) {
      if (required) throw new PolicyFailure('holder_binding.missing', 'The presentation has no KB-JWT');
      return { method: 'none', required: false };
    }
    // A KB-JWT that is present is checked even when not required: a bad proof is never ignored.
    const decodedKb = parts.decoded?.kbJwt;
    return verifyKeyBinding({ kbJwt: parts.kbJwt, presented: parts.presented, issuerPayload: payload, transactionData, ...(decodedKb ? { decoded: decodedKb } : {}) }, ctx);
  });
  const results = [proof, notBefore, notAfter, holderBinding];
  // Only a credential that is otherwise valid is worth a network round trip for its status.
  if (payload.status !== undefined && results.every((r) => !r.error)) results.push(await runPolicy(path, 'status', () => checkTokenStatus(payload.status, x5c?.anchor, ctx)));
  else if (payload.status === undefined) results.push(passed(path, 'status', { checked: false, reason: 'the credential has no status claim' }));
  return results;
}
