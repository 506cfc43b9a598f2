import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { httpVerifierClient, type PolicyResult, type VerifierClient } from '@vp-authorizer/core';
import { createDcqlAuthorization, encryptResponse, fetchRequestObject, makeSdJwt, startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>> | undefined;
let service: Server | undefined;
afterEach(async () => {
  await env?.close();
  if (service) {
    service.closeAllConnections();
    await new Promise((r) => service!.close(r));
  }
  env = service = undefined;
});

const SECRET_HEADER = 'Bearer remote-verifier-secret-0001';

/** A remote verifier on 127.0.0.1 (random port); `answer` writes the whole HTTP answer. */
async function verifierService(answer: (res: ServerResponse, req: IncomingMessage) => void): Promise<string> {
  service = createServer(async (req, res) => {
    for await (const _ of req); // read the request fully before answering
    answer(res, req);
  });
  await new Promise<void>((r) => service!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
}

/** Authorizer whose verify policy calls `verifier` (registered as instance "remote"). */
async function withVerifier(verifier: VerifierClient) {
  env = await startAuthorizer({
    clients: { verifiers: { remote: verifier } },
    instance: { verifier: undefined, config: { openId4vp: { redirectUri: 'https://rp.example/cb' }, policies: { verify: { verifier: { type: 'instance', resourceId: 'remote' } } } } },
  });
}

async function runFlow() {
  const { json } = await createDcqlAuthorization(env!.api);
  const ro = await fetchRequestObject(json.authorizeUrl!);
  const claims = decodeJwt(ro.jwt);
  const response = await encryptResponse(ro.jwt, { vp_token: { pid: [await makeSdJwt()] }, state: claims.state });
  const post = await fetch(claims.response_uri as string, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ response }) });
  // The wallet's answer (200, or an OAuth error for a refused presentation) is not what these tests are about.
  await post.body?.cancel();
  const status = ((await (await env!.api(`/openid4/vp/v1_0/authorizations/${json.authorizationId}/status`)).json()) as { status: string }).status;
  const policy = (await (await env!.api(`/openid4/vp/v1_0/authorizations/${json.authorizationId}/policy-response`)).json()) as { data: PolicyResult[] };
  return { status, results: policy.data, failure: policy.data.find((r) => r.error)?.error, raw: JSON.stringify(policy.data) };
}

/** Nothing that would identify or authenticate against the service leaks into the results. */
function expectNoSecrets(raw: string, url: string) {
  expect(raw).not.toContain(SECRET_HEADER);
  expect(raw).not.toContain(new URL(url).host);
  expect(raw).not.toContain('127.0.0.1');
}

describe('a remote verifier that answers 422 without per-presentation results', () => {
  it('ends rejected (not error): the failure at [] decides about every presentation', async () => {
    const url = await verifierService((res) => res.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'https://verifier.example/errors/proof', title: 'bad proof' } })));
    await withVerifier(httpVerifierClient({ url, retries: 0 }));
    const { status, results } = await runFlow();
    expect(status).toBe('rejected');
    expect(results).toContainEqual(expect.objectContaining({ path: [], policy: 'verify', service: 'verifier', error: expect.objectContaining({ code: 'verify.failed', status: 422 }) }));
  });

  it('an empty 422 body ends rejected too', async () => {
    const url = await verifierService((res) => res.writeHead(422, { 'content-type': 'application/json' }).end('{}'));
    await withVerifier(httpVerifierClient({ url, retries: 0 }));
    expect((await runFlow()).status).toBe('rejected');
  });

  it('a 200 whose only result is a success at [] still does not cover the presentations: error', async () => {
    const url = await verifierService((res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results: [{ path: [], policy: 'proof', service: 'verifier', data: {} }] })));
    await withVerifier(httpVerifierClient({ url, retries: 0 }));
    const { status, failure } = await runFlow();
    expect(status).toBe('error');
    expect(failure).toMatchObject({ code: 'verify.unexpected_error', reason: 'service.bad_response' });
  });
});

describe('a failed service call keeps its reason in the policy result, without secrets', () => {
  it('timeout → reason service.timeout, naming the service and endpoint path', async () => {
    const url = await verifierService(() => undefined); // never answers
    await withVerifier(httpVerifierClient({ url, timeoutMs: 150, retries: 0, headers: { authorization: SECRET_HEADER } }));
    const { status, failure, raw } = await runFlow();
    expect(status).toBe('error');
    expect(failure).toMatchObject({ code: 'verify.unexpected_error', vidosType: 'unexpected-verify-error', reason: 'service.timeout', attempts: 1 });
    expect(failure!.detail).toContain('verifier /verify');
    expectNoSecrets(raw, url);
  });

  it('503 → reason service.unavailable with HTTP status 503 and the number of attempts', async () => {
    const url = await verifierService((res) => res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'down for maintenance' })));
    await withVerifier(httpVerifierClient({ url, retries: 1, headers: { authorization: SECRET_HEADER } }));
    const { status, failure, raw } = await runFlow();
    expect(status).toBe('error');
    expect(failure).toMatchObject({ code: 'verify.unexpected_error', reason: 'service.unavailable', status: 503, attempts: 2 });
    expect(failure!.detail).toContain('verifier /verify: HTTP 503');
    expectNoSecrets(raw, url);
  });

  it('garbage → reason service.bad_response with the HTTP status, and no body in the result', async () => {
    const url = await verifierService((res) => res.writeHead(200, { 'content-type': 'application/json' }).end('<html>not-json-garbage</html>'));
    await withVerifier(httpVerifierClient({ url, retries: 0, headers: { authorization: SECRET_HEADER } }));
    const { status, failure, raw } = await runFlow();
    expect(status).toBe('error');
    expect(failure).toMatchObject({ code: 'verify.unexpected_error', reason: 'service.bad_response', status: 200, attempts: 1 });
    expect(raw).not.toContain('not-json-garbage');
    expectNoSecrets(raw, url);
  });

  it('an in-process client that throws → reason service.client_failed, its class name kept, its message never', async () => {
    class KeyStoreError extends Error {
      override readonly name = 'KeyStoreError';
    }
    await withVerifier({ verify: async () => Promise.reject(new KeyStoreError('pkcs11 pin=4711 rejected')), verifyIdToken: async () => [] });
    const { status, failure, raw } = await runFlow();
    expect(status).toBe('error');
    expect(failure).toMatchObject({ code: 'verify.unexpected_error', reason: 'service.client_failed' });
    expect(failure!.detail).toContain('KeyStoreError');
    expect(raw).not.toContain('4711');
  });

  it('an in-process client that hangs past the policy timeout → reason service.timeout', async () => {
    env = await startAuthorizer({
      instance: {
        verifier: { verify: () => new Promise(() => undefined), verifyIdToken: async () => [] },
        config: { openId4vp: { redirectUri: 'https://rp.example/cb' }, policies: { verify: { timeoutMs: 50 } } },
      },
    });
    const { status, failure } = await runFlow();
    expect(status).toBe('error');
    expect(failure).toMatchObject({ code: 'verify.unexpected_error', reason: 'service.timeout' });
  });
});
