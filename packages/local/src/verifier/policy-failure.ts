import type { PolicyResult } from '@vp-authorizer/core';
import { VERIFIER_ERROR_TITLES, type VerifierErrorCode } from './verifier-error-codes.js';

export const ERROR_TYPE_BASE = 'https://vp-authorizer.dev/errors/';

/**
 * Thrown inside a check to end it with a policy error. Never escapes `verify`: it becomes a
 * PolicyResult. `detail` must never contain tokens, keys or nonces.
 */
export class PolicyFailure extends Error {
  override readonly name = 'PolicyFailure';
  constructor(
    readonly code: VerifierErrorCode,
    readonly detail?: string,
  ) {
    super(detail ?? VERIFIER_ERROR_TITLES[code]);
  }
}

export type PolicyName = 'proof' | 'holderBinding' | 'notBefore' | 'notAfter' | 'status' | 'format';

export function failed(path: (string | number)[], policy: PolicyName, code: VerifierErrorCode, detail?: string): PolicyResult {
  return {
    path,
    policy,
    service: 'verifier',
    error: { type: `${ERROR_TYPE_BASE}${code}`, title: VERIFIER_ERROR_TITLES[code], detail: detail ?? VERIFIER_ERROR_TITLES[code], code },
  };
}

export function passed(path: (string | number)[], policy: PolicyName, data: Record<string, unknown>): PolicyResult {
  return { path, policy, service: 'verifier', data };
}

/** Runs one policy check; a PolicyFailure becomes an error result, anything else propagates. */
export async function runPolicy(path: (string | number)[], policy: PolicyName, check: () => Promise<Record<string, unknown>> | Record<string, unknown>): Promise<PolicyResult> {
  try {
    return passed(path, policy, await check());
  } catch (error) {
    if (error instanceof PolicyFailure) return failed(path, policy, error.code, error.detail);
    throw error;
  }
}
