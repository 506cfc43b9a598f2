// The NestJS example on a real server on 127.0.0.1: the app's own controller creates and resolves
// authorizations through the injected authorizer; the wallet talks to the HTTP API the module mounted.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { allowInsecureUrlsForTests, answerWithTestPid, createTestIssuer, freeLoopbackPort, type TestIssuer } from '@vp-authorizer/testing';
import { expectStableRefusal, expectUntrustedIssuerAndMadeUpCodeRefused, postJson } from '../../shared/test/__fixtures__/refusals-through-the-app.js';
import { startExample, type StartedExample } from '../src/app.js';

const API_KEY = 'nest-example-key-4d1f';
let example: StartedExample;
let issuer: TestIssuer;

beforeAll(async () => {
  allowInsecureUrlsForTests();
  issuer = await createTestIssuer();
  const port = await freeLoopbackPort();
  example = await startExample({
    logger: false,
    env: { PORT: String(port), HOST: '127.0.0.1', AUTHZ_API_KEY: API_KEY, ISSUER_ROOT_PEM: issuer.rootCertificatePem, AUTHZ_REDIRECT_URI: 'https://rp.example/done' },
  });
});
afterAll(async () => example?.close());

const post = (path: string, body: unknown = {}) => postJson(`${example.origin}${path}`, body);

it('a verification the app controller starts is answered through the mounted API and resolves to authorized', async () => {
  const started = await post('/verifications');
  expect(started.status).toBe(201);
  const { answer } = await answerWithTestPid(String(started.body.authorizeUrl), { authorizerUrl: `${example.origin}/authz`, apiKey: API_KEY, issuer });
  expect(answer.status).toBe(200);
  const redirect = new URL((answer.body as { redirect_uri: string }).redirect_uri);
  const code = redirect.searchParams.get('response_code');
  expect(code).toBeTruthy();

  const resolved = await post(`/verifications/${String(started.body.authorizationId)}/resolve`, { response_code: code });
  expect(resolved).toEqual({ status: 200, body: { status: 'authorized', givenName: 'Erika' } });
  // Terminal: the same code cannot be spent twice; the refusal keeps its status and stable code.
  const again = await post(`/verifications/${String(started.body.authorizationId)}/resolve`, { response_code: code });
  expectStableRefusal(again);
});

it('refuses a credential from an issuer the environment does not trust, a made-up response code, and an API call without the key', async () => {
  const id = await expectUntrustedIssuerAndMadeUpCodeRefused({ origin: example.origin, authorizerUrl: `${example.origin}/authz`, apiKey: API_KEY });

  const unauthenticated = await fetch(`${example.origin}/authz/openid4/vp/v1_0/authorizations/${id}/status`);
  expect(unauthenticated.status).toBe(401);
  // Routes outside the mount path stay Nest's.
  expect((await fetch(`${example.origin}/nowhere`)).status).toBe(404);
});

it('refuses a bad environment at NestFactory.create, naming the variable and never the key', async () => {
  const started = startExample({ logger: false, env: { PUBLIC_BASE_URL: 'authz.example/no-scheme', AUTHZ_API_KEY: 'short-k' } });
  await expect(started).rejects.toThrow(/PUBLIC_BASE_URL: must be an absolute http\(s\) URL/);
  await expect(started).rejects.toThrow(/AUTHZ_API_KEY: must be at least 8 characters/);
  await expect(started).rejects.not.toThrow(/short-k/);
});
