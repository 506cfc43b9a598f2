// On the Redis store (REDIS_URL) the built command runs a flow like on the memory store, and its
// readiness follows Redis: /readyz is 503 while the connection to Redis is cut (liveness stays
// 200) and 200 again once it is back. Runs through scripts/with-redis.mjs; needs the packages built.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestIssuer, startTcpProxy, type TcpProxy } from '@vp-authorizer/testing';
import { redisUrlForTests } from '@vp-authorizer/testing/redis';
import { runFlow, startServerProcess, writeSigningFiles, type ServerProcess } from '../__fixtures__/server-process.js';

const url = redisUrlForTests('test/standalone-server/readiness-follows-redis.test.ts');
const API_KEY = 'standalone-redis-key-0123456789';
let server: ServerProcess | undefined;
let proxy: TcpProxy | undefined;
afterAll(async () => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  await proxy?.close();
});

/** Polls /readyz (bounded) until it answers `status`; the readiness answer is reused for about a second. */
async function readyzBecomes(status: number): Promise<Response> {
  let res = await fetch(`${server!.origin}/readyz`);
  for (let i = 0; i < 100 && res.status !== status; i++) {
    await new Promise((r) => setTimeout(r, 100));
    res = await fetch(`${server!.origin}/readyz`);
  }
  return res;
}

describe.skipIf(url === undefined)('vp-authorizer-server on Redis', () => {
  it('runs a flow with its records in Redis, and is ready', async () => {
    proxy = await startTcpProxy(Number(new URL(url!).port));
    const dir = mkdtempSync(join(tmpdir(), 'vpa-server-redis-'));
    const signing = await writeSigningFiles(dir);
    const issuer = await createTestIssuer();
    server = await startServerProcess([], {
      AUTHZ_API_KEY: API_KEY,
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      AUTHZ_REDIRECT_URI: 'https://rp.example/login/callback',
      AUTHZ_SIGNING_KEY_FILE: signing.keyFile,
      AUTHZ_SIGNING_CERT_CHAIN_FILE: signing.chainFile,
      ISSUER_ROOT_PEM: issuer.rootCertificatePem,
    });
    expect(server.logLines().find((l) => l.event === 'server.listening')).toMatchObject({ store: 'redis' });
    const flow = await runFlow(server.publicBaseUrl, API_KEY, issuer, signing.rootPem);
    expect(flow.resolved).toEqual({ authorization_id: flow.authorizationId, status: 'authorized' });
    expect((await fetch(`${server.origin}/readyz`)).status).toBe(200);
  }, 60_000);

  it('is not ready while Redis cannot be reached (alive all the while), and ready again once it can', async () => {
    await proxy!.down();
    const down = await readyzBecomes(503);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ status: 'store_unavailable' });
    expect(down.headers.get('retry-after')).toBe('1');
    expect((await fetch(`${server!.origin}/healthz`)).status).toBe(200);

    await proxy!.up();
    expect((await readyzBecomes(200)).status).toBe(200);
  }, 60_000);

  it('closes the Redis connection and exits 0 on SIGTERM', async () => {
    expect(await server!.stop()).toBe(0);
  }, 30_000);
});
