import { bytesToBase64Url, digest, isRecord } from '../encoding.js';
import { checkAlgorithm, jwsHeader, publicKeyFromJwk, verifyJws } from '../jws.js';
import { checkIatWindow } from '../check-iat-window.js';
import { PolicyFailure } from '../policy-failure.js';
import type { VerifierContext } from '../verifier-context.js';
import { checkTransactionDataHashes, type TransactionDataEntry } from './transaction-data.js';

export interface KeyBindingInput {
  kbJwt: string;
  /** `<IssuerJWT>~<D1>~…~<Dn>~`, exactly as received. */
  presented: string;
  /** Verified issuer payload (for `cnf` and `_sd_alg`). */
  issuerPayload: Record<string, unknown>;
  transactionData: readonly TransactionDataEntry[];
  /** The KB-JWT's header and payload as core's format policy decoded them from `kbJwt` in this process. */
  decoded?: { header: Record<string, unknown>; payload: Record<string, unknown> };
}

/** KB-JWT checks (RFC 9901 section 7.3, OpenID4VP 1.0 B.3): typ, alg, cnf.jwk signature, nonce, aud, iat, sd_hash, transaction data. */
export async function verifyKeyBinding(input: KeyBindingInput, ctx: VerifierContext): Promise<Record<string, unknown>> {
  const header = input.decoded?.header ?? jwsHeader(input.kbJwt, 'holder_binding.invalid');
  if (header.typ !== 'kb+jwt') throw new PolicyFailure('holder_binding.invalid', 'The KB-JWT typ is not kb+jwt');
  const alg = checkAlgorithm(header.alg, ctx.allowedAlgs, 'KB-JWT');
  const cnf = input.issuerPayload.cnf;
  if (!isRecord(cnf) || !isRecord(cnf.jwk)) throw new PolicyFailure('holder_binding.key_missing', 'The credential has no cnf.jwk holder key');
  const key = publicKeyFromJwk(cnf.jwk, 'holder_binding.key_missing', 'cnf.jwk');
  const payload = await verifyJws(input.kbJwt, key, alg, 'holder_binding.signature_invalid', 'KB-JWT', { header, payload: input.decoded?.payload });
  if (payload.nonce !== ctx.nonce) throw new PolicyFailure('holder_binding.nonce_mismatch');
  const aud = payload.aud;
  if (!(aud === ctx.audience || (Array.isArray(aud) && aud.length === 1 && aud[0] === ctx.audience))) throw new PolicyFailure('holder_binding.aud_mismatch');
  checkIatWindow(payload.iat, ctx.now, ctx.options.clockSkewMs, ctx.options.kbJwtMaxAgeMs, 'holder_binding.iat_invalid', 'KB-JWT');
  if (payload.exp !== undefined && (typeof payload.exp !== 'number' || payload.exp * 1000 + ctx.options.clockSkewMs <= ctx.now)) throw new PolicyFailure('holder_binding.expired');
  const hashAlg = typeof input.issuerPayload._sd_alg === 'string' ? input.issuerPayload._sd_alg : 'sha-256';
  if (typeof payload.sd_hash !== 'string' || payload.sd_hash !== bytesToBase64Url(digest(hashAlg, input.presented))) throw new PolicyFailure('holder_binding.sd_hash_mismatch');
  return { method: 'kb-jwt', alg, iat: new Date((payload.iat as number) * 1000).toISOString(), ...checkTransactionDataHashes(payload, input.transactionData) };
}
