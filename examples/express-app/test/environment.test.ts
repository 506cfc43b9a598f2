// The example as an operator runs it: `node server.mjs` in a child process, configured only by
// environment variables (docs/examples-configuration.md).
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowInsecureUrlsForTests, buildSignedList, createListSigner, createTestIssuer, createTestWallet, freeLoopbackPort, GRANTED, type TestIssuer } from '@vp-authorizer/testing';

const SERVER = fileURLToPath(new URL('../server.mjs', import.meta.url));
const API_KEY = 'env-configured-key-7Qx9-do-not-print';
const REDIRECT_URI = 'https://rp.example/wallet-done';

/** `node server.mjs` with exactly this environment (plus PATH); resolves once it printed its origin. */
function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, [SERVER], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const started = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const match = /Express example on (http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`server exited ${code}: ${stderr}`)));
  });
  started.catch(() => {}); // awaited by the tests that expect a start; the others read `exited`
  return { child, started, exited, output: () => stdout + stderr };
}

describe('the Express example configured from the environment', () => {
  let issuer: TestIssuer;
  let server: ReturnType<typeof startServer>;
  let base: string;

  beforeAll(async () => {
    allowInsecureUrlsForTests();
    issuer = await createTestIssuer();
    const dir = mkdtempSync(join(tmpdir(), 'vpa-example-env-'));
    const rootFile = join(dir, 'issuer-root.pem');
    writeFileSync(rootFile, issuer.rootCertificatePem);
    const port = await freeLoopbackPort();
    base = `http://127.0.0.1:${port}/authz`;
    server = startServer({
      PORT: String(port),
      PUBLIC_BASE_URL: base,
      AUTHZ_API_KEY: API_KEY,
      AUTHZ_REDIRECT_URI: REDIRECT_URI,
      ISSUER_ROOT_PEM_FILE: rootFile,
    });
    await server.started;
  });
  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('a same-device flow ends at AUTHZ_REDIRECT_URI with a response_code that resolves to authorized', async () => {
    const rp = async (path: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${API_KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const anchor = await rp('/instances/oid4vp-trust-anchor');
    expect(anchor.status).toBe(200);
    const created = await rp('/openid4/vp/v1_0/authorizations', {
      responseMode: 'direct_post.jwt',
      query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: [{ path: ['given_name'] }] }] } },
    });
    expect(created.status).toBe(201);

    const wallet = await createTestWallet();
    await wallet.addSdJwtVc(issuer, { vct: 'urn:eudi:pid:1', claims: { given_name: 'Erika', family_name: 'Mustermann' } });
    const request = await wallet.receive(String(created.body.authorizeUrl), { verifierTrustAnchors: [String(anchor.body.certificate)] });
    // PUBLIC_BASE_URL is where the wallet was sent.
    expect(request.responseUri).toBe(`${base}/openid4/vp/v1_0/${String(created.body.authorizationId)}/direct_post.jwt`);
    const answer = await wallet.respond(request);
    expect(answer.status).toBe(200);

    const redirect = new URL((answer.body as { redirect_uri: string }).redirect_uri);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(REDIRECT_URI);
    const code = redirect.searchParams.get('response_code');
    expect(code).toMatch(/^[A-Za-z0-9_-]{40,}$/);

    const resolved = await rp('/openid4/vp/v1_0/response-code/resolve', { response_code: code, authorization_id: created.body.authorizationId });
    expect(resolved).toEqual({ status: 200, body: { authorization_id: created.body.authorizationId, status: 'authorized' } });
    const credentials = await rp(`/openid4/vp/v1_0/authorizations/${String(created.body.authorizationId)}/credentials`);
    expect((credentials.body.credentials as { claims: Record<string, unknown> }[])[0]!.claims.given_name).toBe('Erika');
  });

  it('never prints the API key it was given', () => {
    expect(server.output()).toContain('(from AUTHZ_API_KEY)');
    expect(server.output()).not.toContain(API_KEY);
  });
});

describe('the Express example trusting issuers only through AUTHZ_TRUST_LISTS', () => {
  it('authorizes a PID whose issuer root a signed trusted list grants, with no ISSUER_ROOT_PEM set', async () => {
    allowInsecureUrlsForTests();
    const issuer = await createTestIssuer();
    const signer = await createListSigner('Example scheme operator');
    const dir = mkdtempSync(join(tmpdir(), 'vpa-example-lists-'));
    const listFile = join(dir, 'tl.xml');
    const signersFile = join(dir, 'list-signers.pem');
    const root = issuer.rootCertificatePem.replace(/-----[^-]+-----|\s/g, '');
    writeFileSync(listFile, buildSignedList({ services: [{ type: 'http://uri.etsi.org/19602/SvcType/PID/Issuance', status: GRANTED, since: new Date(Date.now() - 86_400_000), certificates: [root] }] }, signer));
    writeFileSync(signersFile, signer.pem);
    const port = await freeLoopbackPort();
    const listBase = `http://127.0.0.1:${port}/authz`;
    const server = startServer({ PORT: String(port), PUBLIC_BASE_URL: listBase, AUTHZ_API_KEY: API_KEY, AUTHZ_TRUST_LISTS: `tl:${listFile}`, AUTHZ_TRUST_LIST_SIGNERS: signersFile, AUTHZ_TRUST_LISTS_WAIT: 'true' });
    try {
      await server.started;
      expect(server.output()).toContain('AUTHZ_TRUST_LISTS; 1 list signer');
      const rp = async (path: string, body?: unknown) => {
        const res = await fetch(`${listBase}${path}`, {
          method: body ? 'POST' : 'GET',
          headers: { authorization: `Bearer ${API_KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      const anchor = await rp('/instances/oid4vp-trust-anchor');
      const created = await rp('/openid4/vp/v1_0/authorizations', {
        responseMode: 'direct_post.jwt',
        query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: [{ path: ['given_name'] }] }] } },
      });
      const wallet = await createTestWallet();
      await wallet.addSdJwtVc(issuer, { vct: 'urn:eudi:pid:1', claims: { given_name: 'Erika', family_name: 'Mustermann' } });
      const answer = await wallet.respond(await wallet.receive(String(created.body.authorizeUrl), { verifierTrustAnchors: [String(anchor.body.certificate)] }));
      expect(answer.status).toBe(200);
      const status = await rp(`/openid4/vp/v1_0/authorizations/${String(created.body.authorizationId)}/status`);
      expect(status.body.status).toBe('authorized');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('refuses AUTHZ_TRUST_LISTS without AUTHZ_TRUST_LIST_SIGNERS at start', async () => {
    const server = startServer({ PORT: '0', AUTHZ_TRUST_LISTS: 'lotl:https://ec.europa.eu/tools/lotl/eu-lotl.xml' });
    await expect(server.started).rejects.toThrow();
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('AUTHZ_TRUST_LIST_SIGNERS: is required with AUTHZ_TRUST_LISTS');
  });
});

describe('a bad environment', () => {
  it('fails at start with a message naming each bad variable, without the API key', async () => {
    const server = startServer({ PORT: '0', PUBLIC_BASE_URL: 'authz.example/no-scheme', AUTHZ_REDIRECT_URI: 'https://rp.example/done#frag', AUTHZ_API_KEY: 'short-k' });
    await expect(server.started).rejects.toThrow();
    expect(await server.exited).toBe(1);
    const output = server.output();
    expect(output).toContain('PUBLIC_BASE_URL: must be an absolute http(s) URL');
    expect(output).toContain('AUTHZ_REDIRECT_URI: must not have a #fragment');
    expect(output).toContain('AUTHZ_API_KEY: must be at least 8 characters');
    expect(output).not.toContain('short-k');
    expect(output).not.toMatch(/\n\s+at /); // a message, not a stack trace
    expect(output).not.toContain('example on http'); // it never started listening
  });

  it('names ISSUER_ROOT_PEM when it holds no certificate, and never echoes a rejected key', async () => {
    const key = 'a key with spaces inside';
    const server = startServer({ PORT: '0', ISSUER_ROOT_PEM: 'not a certificate', AUTHZ_API_KEY: key });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('ISSUER_ROOT_PEM: the value holds no PEM certificate');
    expect(server.output()).toContain('AUTHZ_API_KEY: must not contain white space');
    expect(server.output()).not.toContain(key);
  });
});
