import { afterEach, describe, expect, it } from 'vitest';
import { AuthorizerError, type RequestSpan } from '@vp-authorizer/core';
import { Refusal, throwRefusal } from '../src/errors/refusal.js';
import { CODES, isErrorCode, type ErrorCode } from '../src/errors/error-codes.js';
import { errorResponse, refusalResponse } from '../src/wire/responses.js';
import { finishWithResponseCode } from './__fixtures__/finish-with-response-code.js';
import { startAuthorizer } from './__fixtures__/test-authorizer.js';
import type { EndpointInput } from '../src/endpoints/endpoint.js';
import { resolveResponseCodeEndpoint } from '../src/endpoints/resolve-response-code.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
afterEach(() => env?.close());

/** Every log line and every span's answer, as the handler reports them. */
function recorders() {
  const lines: Record<string, unknown>[] = [];
  const answers: { status: number; code?: string }[] = [];
  const log = (fields: Record<string, unknown>) => void lines.push(fields);
  const span: RequestSpan = { setAttributes() {}, route() {}, answered: (status, code) => void answers.push(code === undefined ? { status } : { status, code }) };
  return {
    lines,
    answers,
    options: {
      logger: { debug: log, info: log, warn: log, error: log },
      instrumentation: { request: <T>(_r: unknown, run: (s: RequestSpan) => Promise<T>) => run(span), step: <T>(_s: unknown, _a: unknown, run: (s: { setAttributes(): void }) => Promise<T>) => run({ setAttributes() {} }), decision() {} },
    },
  };
}

const resolve = (code: string) => env.api('/openid4/vp/v1_0/response-code/resolve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ response_code: code }) });

describe('a refusal returned by an operation', () => {
  it('renders exactly what the same error thrown renders, for every 4xx code and both audiences; 5xx codes and 405 (Allow) are no refusals', () => {
    const codes = Object.keys(CODES).filter(isErrorCode);
    const refusable = (c: ErrorCode) => CODES[c].status < 500 && c !== 'request.method_not_allowed';
    for (const code of codes.filter((c) => !refusable(c))) expect(() => Refusal.of(code)).toThrow(TypeError);
    expect(codes.filter(refusable).length).toBeGreaterThan(20);
    for (const code of codes.filter(refusable)) {
      for (const audience of ['rp', 'wallet'] as const) {
        expect(refusalResponse(Refusal.of(code), audience)).toEqual(errorResponse(new AuthorizerError(code), audience));
      }
    }
  });

  it('is one frozen value per code, made only for codes of the table, and throws as the error it stands for', () => {
    const notFound = Refusal.of('response_code.not_found');
    expect(Refusal.of('response_code.not_found')).toBe(notFound);
    expect(Object.isFrozen(notFound)).toBe(true);
    expect(() => Refusal.of('no.such_code' as ErrorCode)).toThrow(TypeError);
    expect(() => throwRefusal(notFound)).toThrow(expect.objectContaining({ name: 'AuthorizerError', code: 'response_code.not_found', status: 404 }));
    const answer = { refused: 'response_code.not_found' };
    // Only a Refusal is one: an answer that merely looks like one passes through.
    expect(throwRefusal(answer)).toBe(answer);
  });

  it('an unknown and a used response code: the same 404, log line and span as a thrown refusal, and no "handled" line', async () => {
    const { lines, answers, options } = recorders();
    env = await startAuthorizer(options);
    const { code } = await finishWithResponseCode(env.api);
    expect((await resolve(code)).status).toBe(200);
    lines.length = 0;
    answers.length = 0;

    const expected = errorResponse(new AuthorizerError('response_code.not_found'), 'rp');
    for (const presented of ['never-issued-code', code]) {
      const res = await resolve(presented);
      expect(res.status).toBe(404);
      expect(await res.text()).toBe(expected.body);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    expect(lines.filter((l) => l.event === 'request.refused')).toEqual([
      { event: 'request.refused', route: 'response_code.resolve', status: 404, code: 'response_code.not_found' },
      { event: 'request.refused', route: 'response_code.resolve', status: 404, code: 'response_code.not_found' },
    ]);
    expect(lines.some((l) => l.event === 'request.handled')).toBe(false);
    expect(answers).toEqual([
      { status: 404, code: 'response_code.not_found' },
      { status: 404, code: 'response_code.not_found' },
    ]);

    // A refusal still thrown (an unknown authorization) is logged and traced the same way.
    lines.length = 0;
    answers.length = 0;
    expect((await env.api('/openid4/vp/v1_0/authorizations/aaaaaaaaaaaaaaaaaaaa/status')).status).toBe(404);
    expect(lines.filter((l) => l.event === 'request.refused')).toEqual([{ event: 'request.refused', route: 'authorizations.status', status: 404, code: 'authorization.not_found' }]);
    expect(answers).toEqual([{ status: 404, code: 'authorization.not_found' }]);
  });

  it('the resolve endpoint returns the refusal from runOrRefuse (what handle() calls) and still throws it from run', async () => {
    const ctx = { store: { peek: async () => null } } as unknown as EndpointInput['ctx'];
    const instance = { id: 'main', config: { openId4vp: { requireResponseCodeAuthorizationId: false } } } as unknown as EndpointInput['instance'];
    const request = { method: 'POST', path: resolveResponseCodeEndpoint.path, query: new URLSearchParams(), headers: { get: (name: string) => (name === 'content-type' ? 'application/json' : null) }, body: { kind: 'parsed', value: { response_code: 'never-issued-code' } } } as unknown as EndpointInput['request'];
    const input = { ctx, request, params: [], instance };
    await expect(resolveResponseCodeEndpoint.runOrRefuse(input)).resolves.toBe(Refusal.of('response_code.not_found'));
    await expect(resolveResponseCodeEndpoint.run(input)).rejects.toSatisfy((error: unknown) => error instanceof AuthorizerError && error.code === 'response_code.not_found');
  });

  it('the typed method still throws it as an AuthorizerError', async () => {
    env = await startAuthorizer();
    await expect(env.authorizer.resolveResponseCode('main', 'never-issued-code')).rejects.toSatisfy((error: unknown) => error instanceof AuthorizerError && error.code === 'response_code.not_found' && error.status === 404);
    const { code } = await finishWithResponseCode(env.api);
    await expect(env.authorizer.resolveResponseCode('main', code)).resolves.toMatchObject({ status: 'authorized' });
    await expect(env.authorizer.resolveResponseCode('main', code)).rejects.toSatisfy((error: unknown) => error instanceof AuthorizerError && error.code === 'response_code.not_found');
  });
});
