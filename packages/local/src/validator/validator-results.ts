import { policyProblem, type PolicyCodeOf, type PolicyError, type PolicyResult } from '@vp-authorizer/core';

/** The PolicyError codes of the local validator: the `localValidator` rows of core's CODES table. */
export type ValidatorErrorCode = PolicyCodeOf<'localValidator'>;
export type ValidatorPolicy = 'credentialQuery' | 'trustedIssuer' | 'transactionData';

/** One problem found while checking a presentation. `detail` never quotes claim values. */
export interface Problem {
  code: ValidatorErrorCode;
  detail: string;
  /** JSON pointer into the query (for example `/credentials/0/claims/1`), never into wallet data. */
  pointer?: string;
}

export function problemError(problems: [Problem, ...Problem[]]): PolicyError {
  const [first] = problems;
  const error: PolicyError = policyProblem(first.code, first.detail);
  if (problems.length > 1 || first.pointer !== undefined) {
    error.errors = problems.map((p) => ({ detail: p.detail, code: p.code, ...(p.pointer === undefined ? {} : { pointer: p.pointer }) }));
  }
  return error;
}

export function failed(policy: ValidatorPolicy, path: (string | number)[], problems: [Problem, ...Problem[]]): PolicyResult {
  return { path, policy, service: 'validator', error: problemError(problems) };
}

export function passed(policy: ValidatorPolicy, path: (string | number)[], data: Record<string, unknown>): PolicyResult {
  return { path, policy, service: 'validator', data };
}

export const isNonEmpty = <T>(items: T[]): items is [T, ...T[]] => items.length > 0;
