import { describe, expect, it } from 'vitest';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { CODES, isErrorCode } from '../errors/error-codes.js';
import { errorResponse } from './responses.js';

const body = (error: unknown, audience: 'rp' | 'wallet') => JSON.parse(errorResponse(error, audience).body!) as Record<string, unknown>;

describe('errorResponse', () => {
  it('renders every code in both audiences, the same on every call (default bodies are built once)', () => {
    for (const code of Object.keys(CODES).filter(isErrorCode)) {
      const { status, message, oauth } = CODES[code];
      for (let i = 0; i < 2; i++) {
        const rp = errorResponse(new AuthorizerError(code), 'rp');
        expect(rp.status).toBe(status);
        expect(JSON.parse(rp.body!)).toEqual({ type: code, message, status });
        expect(body(new AuthorizerError(code), 'wallet')).toEqual({ error: oauth, error_description: message });
      }
    }
  });

  it('writes default bodies byte for byte in the documented member order', () => {
    expect(errorResponse(new AuthorizerError('response_code.not_found'), 'rp').body).toBe('{"type":"response_code.not_found","message":"Response code not found, already used, or expired.","status":404}');
    for (const code of Object.keys(CODES).filter(isErrorCode)) {
      const { status, message, oauth } = CODES[code];
      expect(errorResponse(new AuthorizerError(code), 'rp').body).toBe(`{"type":${JSON.stringify(code)},"message":${JSON.stringify(message)},"status":${status}}`);
      expect(errorResponse(new AuthorizerError(code), 'wallet').body).toBe(`{"error":${JSON.stringify(oauth)},"error_description":${JSON.stringify(message)}}`);
    }
  });

  it('renders the relying-party body for an audience that is neither (JavaScript callers), as for rp', () => {
    const rp = errorResponse(new AuthorizerError('response_code.not_found'), 'rp');
    for (const audience of [undefined, '__proto__', 'constructor', 'RP']) {
      expect(errorResponse(new AuthorizerError('response_code.not_found'), audience as unknown as 'rp')).toEqual(rp);
    }
  });

  it('renders an error with its own message, action or field errors as its own, never from or into the shared default', () => {
    const plain = () => body(new AuthorizerError('request.invalid_body'), 'rp');
    expect(plain()).toEqual({ type: 'request.invalid_body', message: 'The request body is invalid.', status: 400 });
    expect(body(new AuthorizerError('request.invalid_body', { message: 'The form has too many parameters.' }), 'rp')).toMatchObject({ message: 'The form has too many parameters.' });
    expect(body(new AuthorizerError('request.invalid_body', { message: 'Custom for the wallet.' }), 'wallet')).toEqual({ error: 'invalid_request', error_description: 'Custom for the wallet.' });
    expect(body(new AuthorizerError('request.invalid_body', { action: 'Send JSON.' }), 'rp')).toMatchObject({ action: 'Send JSON.' });
    const errors = [{ pointer: '/response_code', detail: 'must be a string' }];
    expect(body(new AuthorizerError('request.invalid_body', { errors }), 'rp')).toMatchObject({ errors });
    expect(plain()).toEqual({ type: 'request.invalid_body', message: 'The request body is invalid.', status: 400 });
  });

  it('keeps extra headers per answer: Retry-After and Allow are never shared between answers', () => {
    const withAllow = Object.assign(new AuthorizerError('request.method_not_allowed'), { allow: ['GET', 'HEAD'] });
    expect(errorResponse(withAllow, 'rp').headers).toContainEqual(['allow', 'GET, HEAD']);
    expect(errorResponse(new AuthorizerError('request.method_not_allowed'), 'rp').headers.map(([name]) => name)).not.toContain('allow');
  });
});
