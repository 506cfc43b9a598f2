// Under the mount path the authorizer reads request bodies itself: a malformed or oversized body
// gets the HTTP API's stable code (OAuth-style on wallet paths), never the answer of Nest's body
// parsers, which run for the app's own routes.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { allowInsecureUrlsForTests, createTestIssuer, freeLoopbackPort } from '@vp-authorizer/testing';
import { startExample, type StartedExample } from '../src/app.js';

const API_KEY = 'nest-example-key-77c2';
let example: StartedExample;

beforeAll(async () => {
  allowInsecureUrlsForTests();
  const issuer = await createTestIssuer();
  const port = await freeLoopbackPort();
  example = await startExample({
    logger: false,
    env: { PORT: String(port), HOST: '127.0.0.1', AUTHZ_API_KEY: API_KEY, ISSUER_ROOT_PEM: issuer.rootCertificatePem, AUTHZ_REDIRECT_URI: 'https://rp.example/done' },
  });
});
afterAll(async () => example?.close());

const post = async (path: string, body: string, contentType: string) => {
  const res = await fetch(`${example.origin}${path}`, { method: 'POST', headers: { 'content-type': contentType, authorization: `Bearer ${API_KEY}` }, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

it('answers malformed JSON under the mount path with the HTTP API code', async () => {
  const answer = await post('/authz/openid4/vp/v1_0/response-code/resolve', '{not json', 'application/json');
  expect(answer.status).toBe(400);
  expect(answer.body.type).toMatch(/^request\./);
  expect(answer.body).not.toHaveProperty('statusCode');
});

it('answers a body over the authorizer limit with request.body_too_large, and a wallet with an OAuth error', async () => {
  const big = JSON.stringify({ response_code: 'x'.repeat(2 * 1024 * 1024) });
  const rp = await post('/authz/openid4/vp/v1_0/response-code/resolve', big, 'application/json');
  expect(rp).toMatchObject({ status: 413, body: { type: 'request.body_too_large' } });
  const wallet = await post('/authz/openid4/vp/v1_0/00000000-0000-4000-8000-000000000000/direct_post', `response=${'x'.repeat(2 * 1024 * 1024)}`, 'application/x-www-form-urlencoded');
  expect(wallet.status).toBe(413);
  expect(typeof wallet.body.error).toBe('string');
});

it("leaves the app's own routes to Nest's body parser", async () => {
  const answer = await post('/verifications/some-id/resolve', '{not json', 'application/json');
  expect(answer.status).toBe(400);
  expect(answer.body.statusCode).toBe(400);
});
