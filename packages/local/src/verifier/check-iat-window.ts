import { PolicyFailure } from './policy-failure.js';
import type { VerifierErrorCode } from './verifier-error-codes.js';

/** `iat` (seconds) must be no later than now + skew and no older than maxAge + skew. */
export function checkIatWindow(iat: unknown, now: number, skewMs: number, maxAgeMs: number, code: VerifierErrorCode, what: string): number {
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw new PolicyFailure(code, `The ${what} has no numeric iat`);
  const issuedAt = iat * 1000;
  if (issuedAt > now + skewMs) throw new PolicyFailure(code, `The ${what} iat lies in the future`);
  if (issuedAt < now - maxAgeMs - skewMs) throw new PolicyFailure(code, `The ${what} iat is older than ${Math.round(maxAgeMs / 1000)} s`);
  return issuedAt;
}
