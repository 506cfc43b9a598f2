import type { PolicyResult, VerifyIdTokenInput } from '@vp-authorizer/core';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { DidResolutionError } from '../../did/did-resolution-error.js';
import { parseDidUrl } from '../../did/parse-did-url.js';
import { checkIatWindow } from '../check-iat-window.js';
import { isRecord } from '../encoding.js';
import { checkAlgorithm, jwsHeader, publicKeyFromJwk, verifyJws } from '../jws.js';
import { PolicyFailure, runPolicy } from '../policy-failure.js';
import { resolveDidSignerKey } from '../resolve-signer-key.js';
import type { VerifierContext } from '../verifier-context.js';

const THUMBPRINT_URN = 'urn:ietf:params:oauth:jwk-thumbprint:sha-256:';

function unverifiedClaims(jwt: string): Record<string, unknown> {
  try {
    const payload = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as unknown;
    if (isRecord(payload)) return payload;
  } catch {
    // fall through
  }
  throw new PolicyFailure('id_token.invalid', 'The ID token payload is not a JSON object');
}

/** The signing key for a self-issued ID token: sub_jwk (thumbprint subject) or the sub DID. */
async function subjectKey(claims: Record<string, unknown>, kid: string | undefined, ctx: VerifierContext) {
  const sub = claims.sub as string;
  if (sub.startsWith('did:')) {
    if (claims.sub_jwk !== undefined) throw new PolicyFailure('id_token.sub_jwk_not_allowed');
    // The subject is the DID itself, never a DID URL (path, query or fragment) of it.
    let did: string;
    try {
      did = parseDidUrl(sub).did;
    } catch (error) {
      if (error instanceof DidResolutionError) throw new PolicyFailure('id_token.invalid', 'The ID token sub is not a valid DID');
      throw error;
    }
    if (did !== sub) throw new PolicyFailure('id_token.sub_mismatch', 'The ID token sub must be a DID, not a DID URL');
    const signer = await resolveDidSignerKey({ did: sub, ...(kid ? { kid } : {}) }, 'authentication', ctx);
    return { key: signer.key, data: { subjectSyntaxType: 'did', ...signer.data } };
  }
  const subJwk = claims.sub_jwk;
  if (!isRecord(subJwk)) throw new PolicyFailure('id_token.sub_jwk_missing');
  if ('d' in subJwk || 'x5c' in subJwk) throw new PolicyFailure('id_token.invalid', 'sub_jwk must be a bare public JWK');
  let thumbprint: string;
  try {
    thumbprint = await calculateJwkThumbprint(subJwk as JWK, 'sha256');
  } catch {
    throw new PolicyFailure('id_token.invalid', 'sub_jwk is not a valid JWK');
  }
  // SIOPv2 text says "base64url thumbprint"; its examples use the RFC 9278 URN. Accept both.
  if (sub !== thumbprint && sub !== `${THUMBPRINT_URN}${thumbprint}`) throw new PolicyFailure('id_token.sub_mismatch');
  return { key: publicKeyFromJwk(subJwk, 'id_token.invalid', 'sub_jwk'), data: { subjectSyntaxType: 'jwk_thumbprint' } };
}

/** SIOPv2 section 11.1: self-issued (iss == sub), key from sub_jwk or DID, signature, aud (+azp), nonce, exp, nbf, iat. */
export async function verifyIdToken(input: VerifyIdTokenInput, ctx: VerifierContext): Promise<PolicyResult[]> {
  const jwt = input.idToken.compact;
  return [
    await runPolicy(input.idToken.path, 'proof', async () => {
      const header = jwsHeader(jwt, 'id_token.invalid');
      const alg = checkAlgorithm(header.alg, ctx.allowedAlgs, 'ID token');
      const claims = unverifiedClaims(jwt);
      if (typeof claims.sub !== 'string' || claims.iss !== claims.sub) throw new PolicyFailure('id_token.not_self_issued');
      const signer = await subjectKey(claims, typeof header.kid === 'string' ? header.kid : undefined, ctx);
      const payload = await verifyJws(jwt, signer.key, alg, 'id_token.signature_invalid', 'ID token');
      if (payload.iss !== payload.sub || payload.sub !== claims.sub) throw new PolicyFailure('id_token.not_self_issued');
      // OIDC Core 3.1.3.7: several audiences are accepted only when azp names this client.
      const aud = payload.aud;
      const single = aud === ctx.audience || (Array.isArray(aud) && aud.length === 1 && aud[0] === ctx.audience);
      if (!(single || (Array.isArray(aud) && aud.includes(ctx.audience) && payload.azp === ctx.audience))) throw new PolicyFailure('id_token.aud_mismatch');
      if (payload.nonce !== ctx.nonce) throw new PolicyFailure('id_token.nonce_mismatch');
      if (typeof payload.exp !== 'number' || payload.exp * 1000 + ctx.options.clockSkewMs <= ctx.now) throw new PolicyFailure('id_token.expired');
      if (payload.nbf !== undefined && (typeof payload.nbf !== 'number' || payload.nbf * 1000 > ctx.now + ctx.options.clockSkewMs)) throw new PolicyFailure('id_token.not_yet_valid');
      checkIatWindow(payload.iat, ctx.now, ctx.options.clockSkewMs, ctx.options.kbJwtMaxAgeMs, 'id_token.iat_invalid', 'ID token');
      return { subject: payload.sub, alg, ...signer.data };
    }),
  ];
}
