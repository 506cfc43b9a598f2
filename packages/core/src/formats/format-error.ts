import type { PolicyResult } from '../model/policy-result.js';
import { policyProblem, type PolicyCodeOf } from '../errors/error-codes.js';

/** Codes of the format policy (see CODES). They appear as `error.code` and in `error.type`. */
export type FormatErrorCode = PolicyCodeOf<'format'>;

/**
 * Thrown inside the format policy only and turned into a PolicyResult by runFormatPolicy.
 * `detail` describes the problem without quoting wallet input.
 */
export class FormatFailure extends Error {
  override readonly name = 'FormatFailure';
  constructor(
    readonly code: FormatErrorCode,
    readonly detail: string,
    readonly path: (string | number)[] = [],
  ) {
    super(detail);
  }
}

export function formatErrorResult(code: FormatErrorCode, detail: string, path: (string | number)[]): PolicyResult {
  return { path, policy: 'format', service: 'authorizer', error: policyProblem(code, detail) };
}
