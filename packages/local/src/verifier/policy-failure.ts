import { CODES, policyProblem, type PolicyResult } from '@vp-authorizer/core';
import type { VerifierErrorCode } from './verifier-error-codes.js';

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
    super(detail ?? CODES[code].title);
  }
}

export type PolicyName = 'proof' | 'holderBinding' | 'notBefore' | 'notAfter' | 'status' | 'format';

export function failed(path: (string | number)[], policy: PolicyName, code: VerifierErrorCode, detail?: string): PolicyResult {
  return {
    path,
    policy,
    service: 'verifier',
    error: policyProblem(code, detail ?? CODES[code].title),
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
