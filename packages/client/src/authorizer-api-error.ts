import { type ErrorCode, errorCodeInfo, isErrorCode } from './error-code.js';

/** A member of the request the authorizer refused, located by a JSON pointer into the body. */
export interface FieldProblem {
  pointer: string;
  detail: string;
  /** The rule the member breaks, when it has a code of its own (`haip.response_mode`). */
  code?: ErrorCode;
}

/**
 * An error answer of the authorizer (`{type, message, action?, status, errors?}`), in the terms of
 * RFC 9457: `type` is the stable code to branch on, `title` what the code means (the same for every
 * answer with this code), `detail` what the authorizer said about this request. Never holds the
 * API key or anything of the request but the pointers it names.
 */
export class AuthorizerApiError extends Error {
  override readonly name = 'AuthorizerApiError';
  /**
   * The stable code. A newer authorizer may answer a code this version does not list: it is kept
   * as sent (`isErrorCode(error.type)` tells), and `title` is then the detail.
   */
  readonly type: ErrorCode;
  /** The HTTP status of the answer. */
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  /** What to do about it, when the authorizer says (for example which option to set). */
  readonly action: string | undefined;
  readonly errors: readonly FieldProblem[];
  /** Seconds from `Retry-After` (503 answers: the store is unavailable, or too many event streams). */
  readonly retryAfterSeconds: number | undefined;

  constructor(answer: { type: string; status: number; detail: string; action?: string | undefined; errors?: readonly FieldProblem[] | undefined; retryAfterSeconds?: number | undefined }) {
    super(`${answer.type} (${answer.status}): ${answer.detail}`);
    this.type = answer.type as ErrorCode;
    this.status = answer.status;
    this.title = isErrorCode(answer.type) ? errorCodeInfo(answer.type).title : answer.detail;
    this.detail = answer.detail;
    this.action = answer.action;
    this.errors = answer.errors ?? [];
    this.retryAfterSeconds = answer.retryAfterSeconds;
  }
}

/**
 * An answer that is not the authorizer's: a proxy's error page, a body that is not JSON, an event
 * stream cut before its last status. `status` is the HTTP status (0 when none was received).
 */
export class UnexpectedResponseError extends Error {
  override readonly name: string = 'UnexpectedResponseError';
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** Which of the client's limits an answer broke (see {@link AuthorizerClientOptions}). */
export type ResponseLimit = 'maxResponseBytes' | 'maxEventBytes' | 'idleTimeoutMs';

/**
 * An answer the client stopped reading because it broke one of its limits (a body beyond
 * `maxResponseBytes`, an event beyond `maxEventBytes`, an event stream silent for `idleTimeoutMs`);
 * the connection is closed. `status` is 0 when no answer came (an event stream without headers). Not the authorizer's behaviour: a proxy or a server that is not it.
 */
export class ResponseLimitError extends UnexpectedResponseError {
  override readonly name = 'ResponseLimitError';
  constructor(
    status: number,
    readonly limit: ResponseLimit,
    readonly value: number,
    message: string,
  ) {
    super(status, message);
  }
}

/**
 * Whether `error` is an error answer of the authorizer; with `types`, one of those codes (the
 * argument narrows `error.type`).
 */
export function isAuthorizerApiError<T extends ErrorCode>(error: unknown, ...types: T[]): error is AuthorizerApiError & { readonly type: T } {
  return error instanceof AuthorizerApiError && (types.length === 0 || (types as readonly string[]).includes(error.type));
}

/** The error for a non-2xx answer: `body` is what openapi-fetch read (parsed JSON, or the text). */
export function errorFromAnswer(response: Response, body: unknown): AuthorizerApiError | UnexpectedResponseError {
  const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN);
  if (typeof body === 'object' && body !== null && typeof (body as { type?: unknown }).type === 'string' && typeof (body as { message?: unknown }).message === 'string') {
    const { type, message, action, errors } = body as { type: string; message: string; action?: unknown; errors?: unknown };
    return new AuthorizerApiError({
      type,
      status: response.status,
      detail: message,
      action: typeof action === 'string' ? action : undefined,
      errors: Array.isArray(errors) ? (errors as FieldProblem[]) : [],
      retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined,
    });
  }
  const excerpt = typeof body === 'string' ? body.slice(0, 200) : JSON.stringify(body ?? null).slice(0, 200);
  return new UnexpectedResponseError(
    response.status,
    `${response.url || 'the authorizer'} answered ${response.status} without an error body of the authorizer (is baseUrl where it is mounted?): ${excerpt}`,
  );
}
