import { ERROR_CODES } from './generated/error-codes.js';

/**
 * A stable error code of the authorizer (`request.invalid_body`, `response_code.not_found`, …):
 * the `type` of its error answers, from its one error-code table (docs/errors.md).
 */
export type ErrorCode = keyof typeof ERROR_CODES;

/** Whether `value` is a code this version of the client knows (a newer authorizer may add codes). */
export const isErrorCode = (value: unknown): value is ErrorCode => typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);

/** The HTTP status and one-line description of a code. */
export const errorCodeInfo = (code: ErrorCode): { readonly status: number; readonly title: string } => ERROR_CODES[code];
