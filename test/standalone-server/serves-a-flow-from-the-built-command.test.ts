// The built `vp-authorizer-server` command, configured by a JSON file, serves the HTTP API under
// its public base URL's path: a wallet completes a same-device flow, the backend resolves the
// response code once and reads the claims; /healthz and /readyz answer; every log line is JSON
// and none carries the API key; SIGTERM stops it with exit code 0. Needs the packages built.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestIssuer, freeLoopbackPort, type TestIssuer } from '@vp-authorizer/testing';
import { runFlow, startServerProcess, writeSigningFiles, type ServerProcess, V1 } from '../__fixtures__/server-process.js';

const API_KEY = 'standalone-server-key-0123456789';
let server: ServerProcess | undefined;
let issuer: TestIssuer;
let verifierRoot: string;
let port: number;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vpa-server-flow-'));
  issuer = await createTestIssuer();
  writeFileSync(join(dir, 'issuer-root.pem'), issuer.rootCertificatePem);
  verifierRoot = (await writeSigningFiles(dir)).rootPem;
  port = await freeLoopbackPort();
  // Paths relative to the file; the API key from the file; the redirect URI in the hosted API's openId4vp object.
  writeFileSync(
    join(dir, 'authorizer.json'),
    JSON.stringify({
      port,
      publicBaseUrl: `http://127.0.0.1:${port}/authz`,
      instance: { id: 'rp-1', apiKeys: [API_KEY], config: { openId4vp: { redirectUri: 'https://rp.example/login/callback' } } },
      signing: { keyFile: 'signing-key.pem', certificateChainFile: 'signing-chain.pem', trustAnchorFile: 'signing-root.pem' },
      trust: { issuerRootFiles: ['issuer-root.pem'] },
      store: { type: 'memory' },
    }),
  );
  server = await startServerProcess(['--config', join(dir, 'authorizer.json')], { PORT: '' });
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe('vp-authorizer-server with a configuration file and the memory store', () => {
  it('listens where the file says and serves the API under the public base URL\'s path', async () => {
    expect(server!.origin).toBe(`http://127.0.0.1:${port}`);
    expect(server!.publicBaseUrl).toBe(`http://127.0.0.1:${port}/authz`);
    expect(server!.logLines().find((l) => l.event === 'server.listening')).toMatchObject({ store: 'memory', signingKey: 'file', issuerRoots: 1 });
    expect((await fetch(`${server!.publicBaseUrl}/health`)).status).toBe(204);
    const outside = await fetch(`${server!.origin}${V1}/authorizations`, { headers: { authorization: `Bearer ${API_KEY}` } });
    expect(outside.status).toBe(404);
    expect(((await outside.json()) as { type: string }).type).toBe('request.route_not_found');
  });

  it('runs a flow: the wallet presents, the backend resolves the response code once and reads the claims', async () => {
    const flow = await runFlow(server!.publicBaseUrl, API_KEY, issuer, verifierRoot);
    expect(flow.resolved).toEqual({ authorization_id: flow.authorizationId, status: 'authorized' });
    expect(flow.secondResolve).toBe(404);
    expect(flow.claims).toMatchObject({ given_name: 'Erika' });
  }, 60_000);

  it('answers /healthz (liveness) and /readyz (readiness) at the root, GET and HEAD only', async () => {
    const health = await fetch(`${server!.origin}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${server!.origin}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
    expect((await fetch(`${server!.origin}/readyz`, { method: 'HEAD' })).status).toBe(200);
    const post = await fetch(`${server!.origin}/healthz`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toContain('GET');
  });

  it('writes one JSON object per line with time and level, the authorizer\'s events among them, and never the API key', async () => {
    const lines = server!.logLines();
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line).toMatchObject({ time: expect.any(String), level: expect.stringMatching(/^(debug|info|warn|error)$/) });
    expect(server!.output()).not.toContain(API_KEY);
  });

  it('stops on SIGTERM with exit code 0 once stopped', async () => {
    const code = await server!.stop();
    expect(code).toBe(0);
    expect(server!.logLines().map((l) => l.event)).toEqual(expect.arrayContaining(['server.draining', 'server.stopped']));
  });
});
