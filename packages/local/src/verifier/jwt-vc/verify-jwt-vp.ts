import type { ParsedJwtVcPresentation, ParsedJwtVp, PolicyResult, VerifyInput } from '@vp-authorizer/core';
import { isRecord } from '../encoding.js';
import { checkAlgorithm, jwsHeader, verifyJws } from '../jws.js';
import { failed, passed, PolicyFailure, runPolicy } from '../policy-failure.js';
import { resolveDidSignerKey } from '../resolve-signer-key.js';
import { unsupportedTransactionData } from '../unsupported-transaction-data.js';
import type { VerifierContext } from '../verifier-context.js';
import { verifyJwtCredential } from './verify-jwt-credential.js';

const ENVELOPED_PREFIX = 'data:application/vc+jwt,';

/** VC JWTs of a VP: 1.1 strings, 2.0 EnvelopedVerifiableCredential `data:application/vc+jwt,<jwt>`. */
function embeddedCredentials(vp: Record<string, unknown>): string[] {
  const list = vp.verifiableCredential;
  const items = Array.isArray(list) ? list : list === undefined ? [] : [list];
  return items.map((item) => {
    if (typeof item === 'string') return item;
    if (isRecord(item) && typeof item.id === 'string' && item.id.startsWith(ENVELOPED_PREFIX)) return item.id.slice(ENVELOPED_PREFIX.length);
    throw new PolicyFailure('format.unsupported', 'Only JWT-secured credentials can be verified inside a JWT VP');
  });
}

const holderOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : isRecord(value) && typeof value.id === 'string' ? value.id : undefined);

/** VP JWT signature by the holder DID, nonce and aud; returns the verified presentation object. */
async function verifyHolderProof(jwt: string, ctx: VerifierContext): Promise<{ vp: Record<string, unknown>; data: Record<string, unknown> }> {
  const header = jwsHeader(jwt, 'holder_binding.invalid');
  const alg = checkAlgorithm(header.alg, ctx.allowedAlgs, 'presentation');
  const dataModel = header.typ === 'vp+jwt' ? '2.0' : '1.1';
  const unverified = (() => {
    try {
      return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    } catch {
      throw new PolicyFailure('holder_binding.invalid', 'The VP payload is not JSON');
    }
  })();
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
  const vpHolder = holderOf(vp.holder);
  if (vpHolder !== undefined && vpHolder !== signer.data.did) throw new PolicyFailure('vp.holder_mismatch');
  return { vp, data: { method: 'vp-jwt', dataModel, alg, holder: signer.data.did, kid: signer.data.kid } };
}

/** JWT VP (`jwt_vc_json` with binding): holder proof at the VP path, each VC under `[...path, 'verifiableCredential', i]`. */
export async function verifyJwtVp(presentation: ParsedJwtVp, input: VerifyInput, ctx: VerifierContext): Promise<PolicyResult[]> {
  const path = presentation.path;
  let vp: Record<string, unknown> | undefined;
  const holderBinding = await runPolicy(path, 'holderBinding', async () => {
    const checked = await verifyHolderProof(presentation.raw, ctx);
    vp = checked.vp;
    return checked.data;
  });
  const txFailure = unsupportedTransactionData(input.transactionData, presentation.queryId, path, 'JWT VP');
  const results = txFailure ? [holderBinding, txFailure] : [holderBinding];
  if (!vp) return results;
  let credentials: string[];
  try {
    credentials = embeddedCredentials(vp);
  } catch (error) {
    if (error instanceof PolicyFailure) return [...results, failed(path, 'proof', error.code, error.detail)];
    throw error;
  }
  if (credentials.length === 0) return [...results, failed(path, 'proof', 'proof.claim_missing', 'The presentation contains no credentials')];
  for (const [i, jwt] of credentials.entries()) results.push(...(await verifyJwtCredential(jwt, [...path, 'verifiableCredential', i], ctx)).results);
  return results;
}

/** A bare JWT VC (binding not required, VP §B.1): the VC checks, and holder binding only if allowed to be absent. */
export async function verifyJwtVcPresentation(presentation: ParsedJwtVcPresentation, input: VerifyInput, ctx: VerifierContext): Promise<PolicyResult[]> {
  const path = presentation.path;
  const { results } = await verifyJwtCredential(presentation.raw, path, ctx);
  const required = (input.holderBindingRequired[presentation.queryId] ?? true) || ctx.haip;
  results.push(required ? failed(path, 'holderBinding', 'holder_binding.missing', 'A plain credential was presented where a VP with holder binding is required') : passed(path, 'holderBinding', { method: 'none', required: false }));
  const txFailure = unsupportedTransactionData(input.transactionData, presentation.queryId, path, 'JWT VC');
  if (txFailure) results.push(txFailure);
  return results;
}
