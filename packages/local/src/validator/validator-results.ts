import type { PolicyError, PolicyResult } from '@vp-authorizer/core';

/** Stable codes of the local validator. They appear as `error.code` and at the end of `error.type`. */
export const VALIDATOR_ERROR_TITLES = {
  'credential_query.invalid_query': 'The credential query of this authorization cannot be evaluated.',
  'credential_query.unknown_query': 'A presentation answers a credential query that this request does not contain.',
  'credential_query.cardinality': 'A credential query received more presentations than it allows.',
  'credential_query.format_mismatch': 'The presentation format does not match the credential query.',
  'credential_query.meta_mismatch': 'The credential type does not match the credential query meta constraints.',
  'credential_query.claims_unsatisfied': 'The presentation does not disclose the claims the credential query requires.',
  'credential_query.value_mismatch': 'A disclosed claim does not have one of the values the credential query allows.',
  'credential_query.holder_binding_missing': 'The credential query requires cryptographic holder binding and the presentation has no holder proof.',
  'credential_query.unsatisfied': 'The valid presentations do not satisfy the credential query.',
  'trusted_authorities.no_match': 'The credential was not issued under any trusted authority the credential query names.',
  'trusted_authorities.unsupported': 'The credential query names a trusted authority type this validator cannot evaluate.',
  'trusted_issuer.untrusted': 'The credential issuer certificate chain does not lead to a configured trusted issuer root.',
  'transaction_data.invalid': 'A transaction_data entry of this authorization cannot be decoded.',
  'transaction_data.not_covered': 'A transaction_data entry is not covered by any presentation of the credential queries it names.',
  'presentation_exchange.unknown_descriptor': 'A presentation answers an input descriptor that the presentation definition does not contain.',
  'presentation_exchange.format_mismatch': 'The presentation format is not allowed by its input descriptor.',
  'presentation_exchange.fields_unsatisfied': 'The credential does not meet the input descriptor field constraints.',
  'presentation_exchange.unsupported_jsonpath': 'The presentation definition uses a JSONPath expression outside the supported safe subset.',
  'presentation_exchange.unsupported_filter': 'The presentation definition uses a JSON Schema filter keyword this validator does not evaluate.',
  'presentation_exchange.unsupported_constraint': 'The presentation definition uses a constraint this validator does not evaluate.',
  'presentation_exchange.unsatisfied': 'The valid presentations do not satisfy the presentation definition.',
} as const;

export type ValidatorErrorCode = keyof typeof VALIDATOR_ERROR_TITLES;
export type ValidatorPolicy = 'credentialQuery' | 'trustedIssuer' | 'transactionData';

export const VALIDATOR_ERROR_TYPE_BASE = 'https://vp-authorizer.dev/errors/';

/** One problem found while checking a presentation. `detail` never quotes claim values. */
export interface Problem {
  code: ValidatorErrorCode;
  detail: string;
  /** JSON pointer into the query (for example `/credentials/0/claims/1`), never into wallet data. */
  pointer?: string;
}

export function problemError(problems: [Problem, ...Problem[]]): PolicyError {
  const [first] = problems;
  const error: PolicyError = {
    type: `${VALIDATOR_ERROR_TYPE_BASE}${first.code}`,
    title: VALIDATOR_ERROR_TITLES[first.code],
    detail: first.detail,
    code: first.code,
  };
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
