import type { ErrorCode } from '../errors/error-codes.js';
import type { PolicyError } from '../model/policy-result.js';

export type ServiceCallErrorCode = Extract<ErrorCode, 'service.unavailable' | 'service.bad_response' | 'service.timeout'>;

/**
 * A delegated validator / verifier call could not be carried out: network failure, 5xx, an
 * unexpected status, a malformed or wrongly shaped answer, or the deadline passed. The authorizer
 * maps it to status `error` (not `rejected`: nothing was decided about the presentation). The
 * message names the service and endpoint path only: never URLs with credentials, bodies or tokens.
 */
export class ServiceCallError extends Error {
  override readonly name = 'ServiceCallError';
  readonly code: ServiceCallErrorCode;
  readonly service: 'validator' | 'verifier';
  /** HTTP status of the last answer, when there was one. */
  readonly status: number | undefined;
  /** Requests sent, retries included. */
  readonly attempts: number;
  /** Problem details the service returned, keyed by service name (`{validator: {...}}`). */
  readonly external: Record<string, Omit<PolicyError, 'external'>> | undefined;

  constructor(
    code: ServiceCallErrorCode,
    message: string,
    details: { service: 'validator' | 'verifier'; status?: number; attempts: number; external?: Omit<PolicyError, 'external'>; cause?: unknown },
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.service = details.service;
    this.status = details.status;
    this.attempts = details.attempts;
    this.external = details.external === undefined ? undefined : { [details.service]: details.external };
  }
}

export function isServiceCallError(value: unknown): value is ServiceCallError {
  return value instanceof ServiceCallError;
}
