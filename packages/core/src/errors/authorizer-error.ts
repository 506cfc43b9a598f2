import { ERROR_CODES, type ErrorCode } from './error-codes.js';

/** A field problem, located by a JSON pointer into the request body. */
export interface FieldError {
  pointer: string;
  detail: string;
  /** The rule the field breaks, when it has its own code (for example `haip.response_mode`). */
  code?: ErrorCode;
}

/**
 * Every error the core raises on purpose. `code` is stable (see ERROR_CODES) and maps to an
 * HTTP status in one place. Messages never contain secrets, tokens or request payloads.
 */
export class AuthorizerError extends Error {
  override readonly name = 'AuthorizerError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors: FieldError[] | undefined;
  readonly action: string | undefined;

  constructor(code: ErrorCode, options: { message?: string; errors?: FieldError[]; action?: string; cause?: unknown } = {}) {
    super(options.message ?? ERROR_CODES[code].message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.errors = options.errors;
    this.action = options.action;
  }

  /** OAuth `error` value used by wallet-facing endpoints. */
  get oauthError(): string {
    return ERROR_CODES[this.code].oauth;
  }
}

export function isAuthorizerError(value: unknown): value is AuthorizerError {
  return value instanceof AuthorizerError;
}
