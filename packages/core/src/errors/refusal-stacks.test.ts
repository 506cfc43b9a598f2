import { describe, expect, it } from 'vitest';
import { AuthorizerError } from './authorizer-error.js';
import { CODES, isErrorCode } from './error-codes.js';

const serverErrorCode = Object.keys(CODES).filter(isErrorCode).find((code) => CODES[code].status >= 500)!;

describe('AuthorizerError stacks', () => {
  it('captures no stack frames for a refusal (4xx) and leaves Error.stackTraceLimit as it was', () => {
    const before = Error.stackTraceLimit;
    const error = new AuthorizerError('request.route_not_found');
    expect(error.stack).toBe(`AuthorizerError: ${CODES['request.route_not_found'].message}`);
    expect(Error.stackTraceLimit).toBe(before);
    expect(new Error('plain').stack).toMatch(/\n\s+at /);
  });

  it('keeps the stack of a server error (5xx), which is reported', () => {
    expect(serverErrorCode).toBeDefined();
    const error = new AuthorizerError(serverErrorCode);
    expect(error.stack).toMatch(/\n\s+at /);
  });
});
