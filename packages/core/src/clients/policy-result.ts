import type { Code, PolicyCode } from '../errors/error-codes.js';

/** RFC 9457-style problem details, with the reference API's extensions. */
export interface PolicyError {
  type: string;
  title?: string;
  detail?: string;
  status?: number;
  instance?: string;
  /**
   * Stable machine-readable code, for example `proof.signature_invalid`: one of CODES for results
   * made by vp-authorizer; whatever a remote service sent for its own results.
   */
  code?: PolicyCode | (string & {});
  /** The hosted authorizer API's name for the error, where it has one (for clients written against that API). */
  vidosType?: string;
  errors?: { detail: string; pointer?: string; parameter?: string; header?: string; code?: string }[];
  /** Problem details passed through from a delegated service. */
  external?: Record<string, Omit<PolicyError, 'external'>>;
  /**
   * Why a validate / verify call could not be carried out (`validate.unexpected_error`,
   * `verify.unexpected_error`): `service.timeout`, `service.unavailable`, `service.bad_response`
   * or `service.client_failed` (an in-process client threw).
   */
  reason?: ServiceFailureReason;
  /** Requests sent to a remote service, retries included (with `reason`, when known). */
  attempts?: number;
}

export type ServiceFailureReason = Extract<Code, 'service.timeout' | 'service.unavailable' | 'service.bad_response' | 'service.client_failed'>;

export type ServiceName = 'authorizer' | 'validator' | 'verifier' | 'resolver' | 'library';

/**
 * One policy outcome. `path` is `[]` for the whole response, `[queryId, index]` for one
 * presentation (deeper for mdoc: `[queryId, index, docIndex, namespace]`). Exactly one of
 * `data` and `error` is set.
 */
export interface PolicyResult {
  path: (string | number)[];
  policy: string;
  service: ServiceName;
  data?: Record<string, unknown>;
  error?: PolicyError;
}

export const isFailedResult = (result: PolicyResult): boolean => result.error !== undefined;
