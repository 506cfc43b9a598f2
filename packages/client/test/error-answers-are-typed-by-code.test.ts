// Every error answer of the authorizer reaches the caller as an AuthorizerApiError whose `type` is
// the code of the error table (with the table's description as `title`, the answer's message as
// `detail`), and an answer that is not the authorizer's as an UnexpectedResponseError.
import { CODES } from '@vp-authorizer/core';
import { TEST_API_KEY, listenOnLoopback, startPassThroughAuthorizer } from '@vp-authorizer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthorizerApiError, UnexpectedResponseError, createAuthorizerClient, errorCodeInfo, isAuthorizerApiError, isErrorCode } from '../src/index.js';
import { type VerifyingAuthorizer, pidRequest, startVerifyingAuthorizer } from './__fixtures__/verifying-authorizer.js';

let env: VerifyingAuthorizer;
beforeAll(async () => void (env = await startVerifyingAuthorizer()));
afterAll(() => env?.server.close());

/** The error a call rejects with (fails the test when it resolves). */
async function refusal(call: Promise<unknown>): Promise<AuthorizerApiError> {
  const error = await call.then(
    () => expect.unreachable('the call should have been refused'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthorizerApiError);
  return error as AuthorizerApiError;
}

describe('error answers as typed errors', () => {
  it('a wrong API key: auth.unauthorized, 401, the table title, and never the key in the message', async () => {
    const stranger = createAuthorizerClient({ baseUrl: env.server.base, apiKey: 'not-the-key-of-any-instance-42' });
    const error = await refusal(stranger.createAuthorization(pidRequest()));
    expect(error).toMatchObject({ type: 'auth.unauthorized', status: 401, title: CODES['auth.unauthorized'].message });
    expect(error.message).not.toContain('not-the-key-of-any-instance-42');
    expect(isErrorCode(error.type)).toBe(true);
  });

  it('an unknown authorization: authorization.not_found, 404', async () => {
    const error = await refusal(env.client.getAuthorizationStatus('no-such-authorization'));
    expect(error).toMatchObject({ type: 'authorization.not_found', status: 404 });
  });

  it('an invalid body: request.invalid_body, 400, with the pointer of the member', async () => {
    const error = await refusal(env.client.createAuthorization({ ...pidRequest(), responseMode: 'fax' as never }));
    expect(error).toMatchObject({ type: 'request.invalid_body', status: 400, title: errorCodeInfo('request.invalid_body').title });
    expect(error.errors.map((e) => e.pointer)).toContain('/responseMode');
    expect(error.detail).toBe(error.message.slice(error.message.indexOf(': ') + 2));
  });

  it('an Idempotency-Key too short to be unguessable: request.invalid_idempotency_key, and the code stays usable', async () => {
    const error = await refusal(env.client.resolveResponseCode({ response_code: 'x'.repeat(43) }, { idempotencyKey: 'short' }));
    expect(error).toMatchObject({ type: 'request.invalid_idempotency_key', status: 400 });
  });

  it('a code resolved for another authorization: response_code.authorization_mismatch, then used up', async () => {
    const first = await env.client.createAuthorization(pidRequest());
    const second = await env.client.createAuthorization(pidRequest());
    if (!('authorizeUrl' in first)) throw new Error('expected the redirect shape');
    const wallet = await env.wallet();
    const answer = await wallet.respond(await wallet.receive(first.authorizeUrl, { verifierTrustAnchors: [env.verifierRootPem] }));
    const code = new URL((answer.body as { redirect_uri: string }).redirect_uri).searchParams.get('response_code')!;
    const error = await refusal(env.client.resolveResponseCode({ response_code: code, authorization_id: second.authorizationId }));
    expect(error).toMatchObject({ type: 'response_code.authorization_mismatch', status: 400 });
    expect(isAuthorizerApiError(error, 'response_code.authorization_mismatch', 'response_code.not_found')).toBe(true);
    expect(isAuthorizerApiError(error, 'response_code.not_found')).toBe(false);
    const again = await refusal(env.client.resolveResponseCode({ response_code: code, authorization_id: first.authorizationId }));
    expect(again.type).toBe('response_code.not_found');
  });

  it('erasing before the outcome: authorization.not_finished, 409', async () => {
    const created = await env.client.createAuthorization(pidRequest());
    const error = await refusal(env.client.erasePersonalData(created.authorizationId));
    expect(error).toMatchObject({ type: 'authorization.not_finished', status: 409 });
  });

  it('one event stream too many: events.too_many_streams, 503, with Retry-After as retryAfterSeconds', async () => {
    const server = await startPassThroughAuthorizer({ eventStreams: { maxStreams: 1 } });
    try {
      const limited = createAuthorizerClient({ baseUrl: server.base, apiKey: TEST_API_KEY });
      const created = await limited.createAuthorization(pidRequest());
      const holder = new AbortController();
      const first = limited.streamAuthorizationEvents(created.authorizationId, { signal: holder.signal })[Symbol.asyncIterator]();
      expect((await first.next()).value).toEqual({ status: 'created' });
      const second = limited.streamAuthorizationEvents(created.authorizationId)[Symbol.asyncIterator]();
      const error = await refusal(second.next());
      expect(error).toMatchObject({ type: 'events.too_many_streams', status: 503, retryAfterSeconds: 5 });
      holder.abort();
      expect(await first.next()).toEqual({ done: true, value: undefined });
    } finally {
      await server.close();
    }
  });
});

describe('answers that are not the authorizer’s', () => {
  it('a proxy error page: UnexpectedResponseError with its status', async () => {
    const proxy = await listenOnLoopback((_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>Bad Gateway</body></html>'));
    try {
      const behindProxy = createAuthorizerClient({ baseUrl: `${proxy.origin}/authz`, apiKey: TEST_API_KEY });
      const error = await behindProxy.getAuthorizationStatus('any').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnexpectedResponseError);
      expect(error).toMatchObject({ status: 502 });
      expect(String((error as Error).message)).toContain('Bad Gateway');
      expect(String((error as Error).message)).not.toContain(TEST_API_KEY);
    } finally {
      await proxy.close();
    }
  });
});

describe('mistakes refused when the client is made', () => {
  it('a baseUrl that is not an absolute http(s) URL, or has a query', () => {
    expect(() => createAuthorizerClient({ baseUrl: 'rp.example.com/authz', apiKey: TEST_API_KEY })).toThrow(/baseUrl must be where the authorizer is mounted/);
    expect(() => createAuthorizerClient({ baseUrl: 'ftp://rp.example.com/authz', apiKey: TEST_API_KEY })).toThrow(/absolute http\(s\) URL/);
    expect(() => createAuthorizerClient({ baseUrl: 'https://rp.example.com/authz?x=1', apiKey: TEST_API_KEY })).toThrow(/without query/);
  });

  it('a missing API key', () => {
    expect(() => createAuthorizerClient({ baseUrl: 'https://rp.example.com/authz', apiKey: ' ' })).toThrow(/apiKey is required/);
  });
});
