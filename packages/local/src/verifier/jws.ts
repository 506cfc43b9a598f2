import { createPublicKey, type KeyObject } from 'node:crypto';
import type { JWK } from 'jose';
import { checkCompactSignature, decodeJsonSegment } from '../jws/check-compact-signature.js';
import { isRecord, UTF8 } from './encoding.js';
import { PolicyFailure } from './policy-failure.js';
import type { VerifierErrorCode } from './verifier-error-codes.js';

export type JwsHeader = Record<string, unknown>;

/** Decodes the protected header (strict base64url, UTF-8, a JSON object); a malformed JWS fails with `code`. */
export function jwsHeader(compact: string, code: VerifierErrorCode): JwsHeader {
  try {
    const end = compact.indexOf('.');
    return decodeJsonSegment(end < 0 ? compact : compact.slice(0, end));
  } catch {
    throw new PolicyFailure(code, 'The JWS header could not be decoded');
  }
}

/** The payload of a compact JWS as a JSON object, not verified; undefined when it does not decode to one. */
export function tryDecodePayload(compact: string): Record<string, unknown> | undefined {
  const first = compact.indexOf('.');
  const second = compact.indexOf('.', first + 1);
  if (first < 0 || second < 0) return undefined;
  try {
    return decodeJsonSegment(compact.slice(first + 1, second));
  } catch {
    return undefined;
  }
}

/**
 * What the caller already decoded from the same compact JWS: its protected header (as
 * `jwsHeader` returned it) and, when it decoded, its payload (as `tryDecodePayload` returned
 * it). Once the signature over those very bytes holds, they are the verified header and payload.
 */
export interface DecodedJws {
  header: JwsHeader;
  payload?: Record<string, unknown> | undefined;
}

/** `alg` must be one the verifier accepts (never `none`). */
export function checkAlgorithm(alg: unknown, allowed: readonly string[], what: string): string {
  if (typeof alg !== 'string' || !allowed.includes(alg)) {
    throw new PolicyFailure('proof.algorithm_not_allowed', `The ${what} uses the algorithm ${typeof alg === 'string' ? alg.slice(0, 20) : '(none)'}, which is not one of ${allowed.join(', ')}`);
  }
  return alg;
}

/** Public key from a JWK; private members are ignored, a JWK that is not a public key fails. */
export function publicKeyFromJwk(jwk: unknown, code: VerifierErrorCode, what: string): KeyObject {
  if (!isRecord(jwk) || typeof jwk.kty !== 'string' || jwk.kty === 'oct') throw new PolicyFailure(code, `The ${what} is not a public JWK`);
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub } = jwk as JWK;
  try {
    return createPublicKey({ key: pub as import('node:crypto').JsonWebKey, format: 'jwk' });
  } catch {
    throw new PolicyFailure(code, `The ${what} is not a valid public JWK`);
  }
}

/**
 * Verifies a compact JWS with `key` and `alg` (the only accepted algorithm; the header must name
 * it); returns the payload parsed as a JSON object. node:crypto uses the KeyObject as is, where
 * a WebCrypto path would convert it on every call.
 */
export async function verifyJws(compact: string, key: KeyObject, alg: string, code: VerifierErrorCode, what: string, decoded?: DecodedJws): Promise<Record<string, unknown>> {
  let payload: Uint8Array;
  try {
    payload = checkCompactSignature(compact, key, alg, decoded?.header);
  } catch {
    throw new PolicyFailure(code, `The ${what} signature could not be verified`);
  }
  if (decoded?.payload) return decoded.payload;
  let parsed: unknown;
  try {
    parsed = JSON.parse(UTF8.decode(payload));
  } catch {
    throw new PolicyFailure(code, `The ${what} payload is not JSON`);
  }
  if (!isRecord(parsed)) throw new PolicyFailure(code, `The ${what} payload is not a JSON object`);
  return parsed;
}
