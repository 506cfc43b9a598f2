import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { decodeProtectedHeader, type JWK } from 'jose';
import { base64UrlToBytes, isRecord } from './encoding.js';
import { PolicyFailure } from './policy-failure.js';
import type { VerifierErrorCode } from './verifier-error-codes.js';

export type JwsHeader = Record<string, unknown>;

/** Decodes the protected header; a malformed JWS fails with `code`. */
export function jwsHeader(compact: string, code: VerifierErrorCode): JwsHeader {
  try {
    return decodeProtectedHeader(compact) as JwsHeader;
  } catch {
    throw new PolicyFailure(code, 'The JWS header could not be decoded');
  }
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
 * How each JOSE algorithm the verifier accepts is checked with node:crypto (RFC 7518 section 3.4,
 * RFC 8037): the digest, the key type (and curve) the algorithm demands, and the exact signature
 * length (ECDSA signatures are R || S, each as long as the curve order).
 */
const JWS_ALGORITHMS: Record<string, { hash: string | null; keyTypes: readonly string[]; curve?: string; signatureBytes?: number }> = {
  ES256: { hash: 'sha256', keyTypes: ['ec'], curve: 'prime256v1', signatureBytes: 64 },
  ES384: { hash: 'sha384', keyTypes: ['ec'], curve: 'secp384r1', signatureBytes: 96 },
  ES512: { hash: 'sha512', keyTypes: ['ec'], curve: 'secp521r1', signatureBytes: 132 },
  // As jose 6 (used before): EdDSA means Ed25519 only.
  EdDSA: { hash: null, keyTypes: ['ed25519'], signatureBytes: 64 },
  Ed25519: { hash: null, keyTypes: ['ed25519'], signatureBytes: 64 },
};

/** Checks a compact JWS signature with node:crypto; returns the decoded payload bytes or throws. */
function checkCompactSignature(compact: string, key: KeyObject, alg: string): Uint8Array {
  if (typeof compact !== 'string') throw new TypeError('not a compact JWS');
  const first = compact.indexOf('.');
  const second = compact.indexOf('.', first + 1);
  if (first < 0 || second < 0 || compact.indexOf('.', second + 1) >= 0) throw new TypeError('not a compact JWS');
  const header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(base64UrlToBytes(compact.slice(0, first)))) as unknown;
  if (!isRecord(header) || header.alg !== alg) throw new TypeError('header alg differs');
  // No critical extension is understood here (not even RFC 7797 b64): a JWS that lists any fails.
  if (header.crit !== undefined) throw new TypeError('unsupported crit');
  const spec = JWS_ALGORITHMS[alg];
  if (!spec || !spec.keyTypes.includes(key.asymmetricKeyType ?? '')) throw new TypeError('key does not fit the algorithm');
  if (spec.curve !== undefined && key.asymmetricKeyDetails?.namedCurve !== spec.curve) throw new TypeError('key curve does not fit the algorithm');
  const signature = base64UrlToBytes(compact.slice(second + 1));
  if (spec.signatureBytes !== undefined && signature.length !== spec.signatureBytes) throw new TypeError('signature length');
  const payload = base64UrlToBytes(compact.slice(first + 1, second));
  const signingInput = Buffer.from(compact.slice(0, second), 'ascii');
  const ok = spec.hash === null ? verify(null, signingInput, key, signature) : verify(spec.hash, signingInput, { key, dsaEncoding: 'ieee-p1363' }, signature);
  if (!ok) throw new TypeError('bad signature');
  return payload;
}

/**
 * Verifies a compact JWS with `key` and `alg` (the only accepted algorithm; the header must name
 * it); returns the payload parsed as a JSON object. node:crypto uses the KeyObject as is, where
 * a WebCrypto path would convert it on every call.
 */
export async function verifyJws(compact: string, key: KeyObject, alg: string, code: VerifierErrorCode, what: string): Promise<Record<string, unknown>> {
  let payload: Uint8Array;
  try {
    payload = checkCompactSignature(compact, key, alg);
  } catch {
    throw new PolicyFailure(code, `The ${what} signature could not be verified`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload));
  } catch {
    throw new PolicyFailure(code, `The ${what} payload is not JSON`);
  }
  if (!isRecord(parsed)) throw new PolicyFailure(code, `The ${what} payload is not a JSON object`);
  return parsed;
}
