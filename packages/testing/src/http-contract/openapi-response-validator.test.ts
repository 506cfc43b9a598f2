import { describe, expect, it } from 'vitest';
import { createResponseValidator } from './openapi-response-validator.js';

const validate = createResponseValidator();
const V = '/openid4/vp/v1_0';
const answer = (method: string, path: string, status: number, body: unknown, contentType = 'application/json; charset=utf-8') => ({
  method,
  path,
  status,
  contentType,
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('OpenAPI response validator', () => {
  it('accepts a declared status with a body that matches its schema', () => {
    expect(validate(answer('GET', `${V}/authorizations/abc/status`, 200, { status: 'pending' }))).toEqual([]);
    expect(validate(answer('GET', '/health', 204, '', ''))).toEqual([]);
    expect(validate(answer('POST', `${V}/abc/direct_post`, 400, { error: 'invalid_request', error_description: 'x' }))).toEqual([]);
  });

  it('refuses a status the operation does not declare', () => {
    expect(validate(answer('GET', `${V}/authorizations/abc/status`, 202, { status: 'pending' }))[0]).toMatch(/status 202 is not declared for getAuthorizationStatus/);
  });

  it('refuses a body that does not match (unknown status value, missing member, wrong error format)', () => {
    expect(validate(answer('GET', `${V}/authorizations/abc/status`, 200, { status: 'done' }))).not.toEqual([]);
    expect(validate(answer('POST', `${V}/response-code/resolve`, 200, { status: 'authorized' }))).not.toEqual([]);
    // A wallet endpoint answering in the RP format is the drift the 413 bug was.
    expect(validate(answer('POST', `${V}/abc/direct_post.jwt`, 413, { type: 'request.body_too_large', message: 'x', status: 413 }))).not.toEqual([]);
    expect(validate(answer('GET', `${V}/authorizations/abc/status`, 200, 'not json'))[0]).toMatch(/not JSON/);
  });

  it('refuses an undeclared content type and a body where none is declared', () => {
    expect(validate(answer('GET', `${V}/authorizations/abc/status`, 200, { status: 'pending' }, 'text/plain'))[0]).toMatch(/content type/);
    expect(validate(answer('GET', '/health', 204, 'x', 'text/plain'))[0]).toMatch(/declares no body/);
  });

  it('holds unknown paths to 404 and unknown methods to 405, in the error format of the path', () => {
    expect(validate(answer('GET', '/no/such', 404, { type: 'request.route_not_found', message: 'No such endpoint.', status: 404 }))).toEqual([]);
    expect(validate(answer('GET', '/no/such', 200, {}))).not.toEqual([]);
    expect(validate(answer('DELETE', '/health', 405, { type: 'request.method_not_allowed', message: 'x', status: 405 }))).toEqual([]);
    expect(validate(answer('PUT', `${V}/abc/direct_post`, 405, { error: 'invalid_request' }))).toEqual([]);
    expect(validate(answer('PUT', `${V}/abc/direct_post`, 405, { type: 'request.method_not_allowed', message: 'x', status: 405 }))).not.toEqual([]);
  });

  it('checks only the status of an answer a host body parser gave before the authorizer ran', () => {
    expect(validate({ ...answer('POST', `${V}/authorizations`, 400, '<html>Bad Request</html>', 'text/html'), answeredByHost: true })).toEqual([]);
    expect(validate({ ...answer('POST', `${V}/authorizations`, 418, '', 'text/html'), answeredByHost: true })).not.toEqual([]);
  });
});
