// The Next.js example as it is deployed: `next build`, then `next start` in a child process on
// 127.0.0.1, configured only by environment variables (docs/examples-configuration.md).
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { allowInsecureUrlsForTests, answerWithTestPid, createTestIssuer, freeLoopbackPort, header, rawRequest, type TestIssuer } from '@vp-authorizer/testing';
import { expectUntrustedIssuerAndMadeUpCodeRefused, postJson } from '../../shared/test/__fixtures__/refusals-through-the-app.js';

const APP = fileURLToPath(new URL('..', import.meta.url));
const NEXT = createRequire(import.meta.url).resolve('next/dist/bin/next');
const API_KEY = 'next-example-key-8c2e';
// Telemetry off: nothing leaves the machine during the build or the run.
const NEXT_ENV = { PATH: process.env.PATH ?? '', NEXT_TELEMETRY_DISABLED: '1' };

let origin: string;
let issuer: TestIssuer;
let server: ReturnType<typeof spawn> | undefined;
let output = '';

beforeAll(async () => {
  allowInsecureUrlsForTests();
  issuer = await createTestIssuer();
  // Node loads the packages' dist at run time (next.config.mjs): say so rather than fail inside webpack.
  for (const name of ['@vp-authorizer/core', '@vp-authorizer/server']) {
    try {
      createRequire(join(APP, 'package.json')).resolve(name);
    } catch {
      throw new Error(`${name} is not built: run pnpm run build (npm test does) before this test`);
    }
  }
  const build = spawnSync(process.execPath, [NEXT, 'build'], { cwd: APP, env: NEXT_ENV, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`next build failed (${build.status}):\n${build.stdout}${build.stderr}`);

  const port = await freeLoopbackPort();
  origin = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, [NEXT, 'start', '--port', String(port), '--hostname', '127.0.0.1'], {
    cwd: APP,
    // `next start` defaults NODE_ENV to production, where the authorizer refuses an http public
    // base URL (wallets need https; a deployment puts PUBLIC_BASE_URL behind its TLS proxy). This
    // server is reached over plain http on 127.0.0.1, so it runs the production build as a test.
    env: { ...NEXT_ENV, NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', AUTHZ_API_KEY: API_KEY, ISSUER_ROOT_PEM: issuer.rootCertificatePem, AUTHZ_REDIRECT_URI: 'https://rp.example/done', EXPRESS_CORS_ENABLED: 'true', EXPRESS_CORS_ORIGIN: 'http://localhost:5173' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (chunk) => (output += chunk));
  server.stderr!.on('data', (chunk) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    server!.once('exit', (code) => reject(new Error(`next start exited ${code}:\n${output}`)));
    server!.stdout!.on('data', () => /Ready in/.test(output) && resolve());
  });
}, 300_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
});

const post = (path: string, body: unknown = {}) => postJson(`${origin}${path}`, body);

it('a verification a route handler starts is answered through /authz and resolves to authorized', async () => {
  const started = await post('/verifications');
  expect(started.status).toBe(201);
  const { request, answer } = await answerWithTestPid(String(started.body.authorizeUrl), { authorizerUrl: `${origin}/authz`, apiKey: API_KEY, issuer });
  // The wallet posts to the public base URL built from PORT / HOST: the route handlers' mount.
  expect(request.responseUri).toMatch(new RegExp(`^${origin}/authz/openid4/vp/v1_0/`));
  expect(answer.status).toBe(200);
  const code = new URL((answer.body as { redirect_uri: string }).redirect_uri).searchParams.get('response_code');
  expect(code).toBeTruthy();

  const resolved = await post(`/verifications/${String(started.body.authorizationId)}/resolve`, { response_code: code });
  expect(resolved).toEqual({ status: 200, body: { status: 'authorized', givenName: 'Erika' } });
  // The RP API under /authz sees the same authorization: one authorizer per process.
  const status = await fetch(`${origin}/authz/openid4/vp/v1_0/authorizations/${String(started.body.authorizationId)}/status`, { headers: { authorization: `Bearer ${API_KEY}` } });
  expect(((await status.json()) as { status: string }).status).toBe('authorized');
});

it('refuses a credential from an issuer the environment does not trust, a made-up response code, and an API call without the key', async () => {
  const id = await expectUntrustedIssuerAndMadeUpCodeRefused({ origin, authorizerUrl: `${origin}/authz`, apiKey: API_KEY });
  expect((await fetch(`${origin}/authz/openid4/vp/v1_0/authorizations/${id}/status`)).status).toBe(401);
});

it('answers a CORS preflight from the configured origin, and serves the host route beside /authz', async () => {
  const res = await rawRequest(`${origin}/authz/openid4/vp/v1_0/authorizations`, {
    method: 'OPTIONS',
    headers: [['Origin', 'http://localhost:5173'], ['Access-Control-Request-Method', 'POST'], ['Access-Control-Request-Headers', 'authorization, content-type']],
  });
  expect(res.status).toBe(204);
  expect(header(res, 'access-control-allow-origin')).toBe('http://localhost:5173');
  expect(await (await fetch(`${origin}/`)).text()).toContain('Your app');
  expect(output).toContain('API key (from AUTHZ_API_KEY)');
  expect(output).not.toContain(API_KEY);
});

it("bounds the body its own resolve route reads (route handlers have no body limit): 413 request.body_too_large", async () => {
  const resolved = await post('/verifications/some-id/resolve', { response_code: 'x'.repeat(2 * 1024 * 1024) });
  expect(resolved).toMatchObject({ status: 413, body: { type: 'request.body_too_large' } });
});
