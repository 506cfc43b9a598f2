import { policyProblem } from '../errors/error-codes.js';
import type { PolicyResult } from '../model/policy-result.js';
import type { ServiceOutcome } from './post-to-service.js';

const FAILED = {
  validator: { policy: 'validate', code: 'validate.failed' },
  verifier: { policy: 'verify', code: 'verify.failed' },
} as const;

/**
 * A 422 answer: the service's own results (if any) plus one failing `validate` / `verify` result
 * at `[]`, so the decision is `rejected` even when the service sent no failing result itself. The
 * service's problem details are kept under `error.external.<service>`.
 */
export function invalidOutcomeResults(outcome: Extract<ServiceOutcome, { kind: 'invalid' }>, service: 'validator' | 'verifier'): PolicyResult[] {
  const { policy, code } = FAILED[service];
  const failure: PolicyResult = {
    path: [],
    policy,
    service,
    error: {
      ...policyProblem(code, `The ${service} service answered 422 (invalid).`),
      status: 422,
      ...(outcome.problem ? { external: { [service]: outcome.problem } } : {}),
    },
  };
  return [...outcome.results, failure];
}
