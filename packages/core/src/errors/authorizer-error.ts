import { CODES, type ErrorCode } from './error-codes.js';

/** A field problem, located by a JSON pointer into the request body. */
export interface FieldError {
  pointer: string;
  detail: string;
  /** The rule the field breaks, when it has its own code (for example `haip.response_mode`). */
  code?: ErrorCode;
}

/**
 * Every error the core raises on purpose. `code` is stable (see CODES) and maps to an
 * HTTP status in one place. Messages never contain secrets, tokens or request payloads.
 */
export class AuthorizerError extends Error {
  override readonly name = 'AuthorizerError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors: FieldError[] | undefined;
  readonly action: string | undefined;

  constructor(code: ErrorCode, options: { message?: string; errors?: FieldError[]; action?: string; cause?: unknown } = {}) {
    // A refusal (4xx) is an answer, never reported with its stack: skip capturing one (a deep
    // async stack costs more than the rest of the refusal). 5xx errors keep theirs for the logs.
    const limit = CODES[code].status < 500 ? setStackTraceLimit(0) : undefined;
    super(options.message ?? CODES[code].message, options.cause === undefined ? undefined : { cause: options.cause });
    if (limit !== undefined) setStackTraceLimit(limit);
    this.code = code;
    this.status = CODES[code].status;
    this.errors = options.errors;
    this.action = options.action;
  }

  /** OAuth `error` value used by wallet-facing endpoints. */
  get oauthError(): string {
    return CODES[this.code].oauth;
  }
}

/** Sets `Error.stackTraceLimit` and returns the previous value; undefined (nothing changed) where it cannot be set. */
function setStackTraceLimit(value: number): number | undefined {
  const previous = Error.stackTraceLimit;
  if (typeof previous !== 'number') return undefined; // not V8: no such knob
  try {
    Error.stackTraceLimit = value;
    return previous;
  } catch {
    return undefined; // frozen intrinsics: stacks are captured as usual
  }
}

export function isAuthorizerError(value: unknown): value is AuthorizerError {
  return value instanceof AuthorizerError;
}
