import { AuthorizerError } from './authorizer-error.js';
import { CODES, isErrorCode, type ErrorCode } from './error-codes.js';

/**
 * A refusal an operation returns instead of throwing, on a path where refusing is the usual
 * answer (an unknown or used response code: what every guess costs). It answers exactly what
 * throwing `new AuthorizerError(code)` without options answers (status, body, log line, span),
 * without building an `Error` and unwinding it through the request's async frames. A refusal with
 * a message, an action or field errors of its own is still thrown.
 */
export class Refusal {
  private constructor(readonly refused: ErrorCode) {
    Object.freeze(this);
  }

  // One frozen value per code: nothing is allocated per refusal, and nobody can change one.
  private static readonly all = new Map<ErrorCode, Refusal>();

  /**
   * The refusal with `code`: a 4xx code of the error table (a 5xx is a failure, reported, never
   * returned) whose answer carries no header of its own (a 405 needs its Allow list).
   */
  static of(code: ErrorCode): Refusal {
    let value = Refusal.all.get(code);
    if (value === undefined) {
      if (!isErrorCode(code) || CODES[code].status >= 500 || code === 'request.method_not_allowed') throw new TypeError('not a code a refusal can answer');
      Refusal.all.set(code, (value = new Refusal(code)));
    }
    return value;
  }
}

/** For callers that throw (the typed methods): the refusal as the error it stands for. */
export function throwRefusal<T>(value: T | Refusal): T {
  if (value instanceof Refusal) throw new AuthorizerError(value.refused);
  return value;
}
