// SIGTERM stops the server gracefully: it stops accepting connections, lets a request in flight
// (a wallet response whose body is still arriving) finish with its real answer, then closes the
// store and exits 0. A request that does not finish within AUTHZ_SHUTDOWN_TIMEOUT_MS is cut and
// the exit code says so. Needs the packages built.
import { mkdtempSync } from 'node:fs';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestIssuer, createTestWallet, type PreparedResponse } from '@vp-authorizer/testing';
import { PID_QUERY, startServerProcess, writeSigningFiles, type ServerProcess, V1 } from '../__fixtures__/server-process.js';

const API_KEY = 'graceful-shutdown-key-0123456789';
let server: ServerProcess | undefined;
afterEach(async () => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  server = undefined;
});

/** A wallet response ready to post, and the server that waits for it. */
async function preparedResponse(env: Record<string, string> = {}): Promise<{ prepared: PreparedResponse; body: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'vpa-server-drain-'));
  const signing = await writeSigningFiles(dir);
  const issuer = await createTestIssuer();
  server = await startServerProcess([], {
    AUTHZ_API_KEY: API_KEY,
    AUTHZ_REDIRECT_URI: 'https://rp.example/login/callback',
    AUTHZ_SIGNING_KEY_FILE: signing.keyFile,
    AUTHZ_SIGNING_CERT_CHAIN_FILE: signing.chainFile,
    ISSUER_ROOT_PEM: issuer.rootCertificatePem,
    ...env,
  });
  const created = (await (
    await fetch(`${server.publicBaseUrl}${V1}/authorizations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: PID_QUERY } }),
    })
  ).json()) as { authorizeUrl: string };
  const wallet = await createTestWallet();
  await wallet.addSdJwtVc(issuer, { vct: 'urn:eudi:pid:1', claims: { given_name: 'Erika' } });
  const prepared = await wallet.createResponse(await wallet.receive(created.authorizeUrl, { verifierTrustAnchors: [signing.rootPem] }));
  return { prepared, body: new URLSearchParams(prepared.form!).toString() };
}

/** Posts the headers and the first half of the body, and waits until the server holds the request. */
async function startSlowPost(prepared: PreparedResponse, body: string): Promise<{ req: ClientRequest; answer: Promise<{ res: IncomingMessage; text: string }> }> {
  const req = httpRequest(prepared.responseUri!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) } });
  const answer = new Promise<{ res: IncomingMessage; text: string }>((resolve, reject) => {
    req.once('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d) => (text += d)).once('end', () => resolve({ res, text }));
    });
    req.once('error', reject);
  });
  await new Promise<void>((resolve) => req.write(body.slice(0, body.length / 2), () => resolve()));
  // One round trip on another connection: by its answer the server has read the slow request's headers.
  await (await fetch(`${server!.origin}/healthz`)).text();
  return { req, answer };
}

describe('vp-authorizer-server on SIGTERM', () => {
  it('finishes the wallet response in flight with its real answer, refuses new connections meanwhile, and exits 0', async () => {
    const { prepared, body } = await preparedResponse();
    const { req, answer } = await startSlowPost(prepared, body);

    server!.child.kill('SIGTERM');
    const draining = await server!.waitForEvent('server.draining');
    expect(draining.inFlight).toBeGreaterThanOrEqual(1);
    // No longer accepting: a new connection is refused.
    await expect(fetch(`${server!.origin}/healthz`)).rejects.toThrow();

    req.end(body.slice(body.length / 2));
    const { res, text } = await answer;
    expect(res.statusCode).toBe(200);
    expect(res.headers.connection).toBe('close');
    expect(new URL((JSON.parse(text) as { redirect_uri: string }).redirect_uri).searchParams.get('response_code')).toMatch(/^[A-Za-z0-9_-]{20,}$/);

    expect(await server!.exited).toBe(0);
    expect(server!.logLines().find((l) => l.event === 'server.stopped')).toMatchObject({ forced: false });
  }, 60_000);

  it('cuts a request that is still in flight at AUTHZ_SHUTDOWN_TIMEOUT_MS and exits 1', async () => {
    const { prepared, body } = await preparedResponse({ AUTHZ_SHUTDOWN_TIMEOUT_MS: '300' });
    const { answer } = await startSlowPost(prepared, body);
    server!.child.kill('SIGTERM');
    // The rest of the body never comes: the server gives up on it after the bound.
    await expect(answer).rejects.toThrow();
    expect(await server!.exited).toBe(1);
    const events = server!.logLines().map((l) => l.event);
    expect(events).toEqual(expect.arrayContaining(['server.draining', 'server.requests_cut', 'server.stopped']));
  }, 60_000);
});
