import { afterEach, describe, expect, it } from 'vitest';
import { AuthorizerError, type RequestSpan } from '@vp-authorizer/core';
import { errorResponse } from '../src/wire/responses.js';
import { finishWithResponseCode } from './__fixtures__/finish-with-response-code.js';
import { startAuthorizer } from './__fixtures__/test-authorizer.js';

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

describe('an unknown or used response code', () => {
  it('answers 404 response_code.not_found, logged and traced as a refusal (request.refused), never as handled', async () => {
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

    // Any other refusal (an unknown authorization) is logged and traced the same way.
    lines.length = 0;
    answers.length = 0;
    expect((await env.api('/openid4/vp/v1_0/authorizations/aaaaaaaaaaaaaaaaaaaa/status')).status).toBe(404);
    expect(lines.filter((l) => l.event === 'request.refused')).toEqual([{ event: 'request.refused', route: 'authorizations.status', status: 404, code: 'authorization.not_found' }]);
    expect(answers).toEqual([{ status: 404, code: 'authorization.not_found' }]);
  });

  it('is thrown by the typed method as an AuthorizerError', async () => {
    env = await startAuthorizer();
    await expect(env.authorizer.resolveResponseCode('main', 'never-issued-code')).rejects.toSatisfy((error: unknown) => error instanceof AuthorizerError && error.code === 'response_code.not_found' && error.status === 404);
    const { code } = await finishWithResponseCode(env.api);
    await expect(env.authorizer.resolveResponseCode('main', code)).resolves.toMatchObject({ status: 'authorized' });
    await expect(env.authorizer.resolveResponseCode('main', code)).rejects.toSatisfy((error: unknown) => error instanceof AuthorizerError && error.code === 'response_code.not_found');
  });
});
