import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { redisStore, type RedisStore } from '@vp-authorizer/redis';
import { deleteKeys, redisUrlForTests, testClient, testPrefix } from '@vp-authorizer/testing/redis';
import { startPassThroughAuthorizer, startTcpProxy, type TcpProxy } from '@vp-authorizer/testing';
import { contractDcql } from '@vp-authorizer/testing/contracts';

const url = redisUrlForTests('test/store/store-unavailable-http.test.ts (outage part)');

let env: Awaited<ReturnType<typeof startPassThroughAuthorizer>> | undefined;
let store: RedisStore | undefined;
let proxy: TcpProxy | undefined;
afterEach(async () => {
  await env?.close();
  await store?.close();
  await proxy?.close();
  env = store = proxy = undefined;
});

async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const expect503 = async (res: Response, audience: 'rp' | 'wallet') => {
  expect(res.status).toBe(503);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  const body = (await res.json()) as Record<string, unknown>;
  if (audience === 'rp') expect(body.type).toBe('store.unavailable');
  else expect(body.error).toBe('temporarily_unavailable');
};

// Needs no redis-server: the store points at a port nothing listens on.
describe('HTTP answers when the Redis store is unreachable', () => {
  it('503 with Retry-After on relying-party and wallet routes, never 500', async () => {
    store = redisStore({ url: `redis://127.0.0.1:${await deadPort()}` });
    env = await startPassThroughAuthorizer({ store });
    const id = 'AAAAAAAAAAAAAAAAAAAAAA';
    await expect503(
      await env.api('/openid4/vp/v1_0/authorizations', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt' }] } } }),
      }),
      'rp',
    );
    await expect503(await env.api(`/openid4/vp/v1_0/authorizations/${id}/status`), 'rp');
    await expect503(
      await env.api('/openid4/vp/v1_0/response-code/resolve', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ response_code: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }),
      }),
      'rp',
    );
    await expect503(await fetch(`${env.base}/openid4/vp/v1_0/authorizations/${id}/jwt`), 'wallet');
    await expect503(
      await fetch(`${env.base}/openid4/vp/v1_0/${id}/direct_post`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ vp_token: '{}', state: 's' }),
      }),
      'wallet',
    );
  });
});

describe.skipIf(url === undefined)('HTTP across a Redis outage', () => {
  it('answers 503 during the outage and serves the same authorization afterwards', async () => {
    proxy = await startTcpProxy(Number(new URL(url!).port));
    const keyPrefix = testPrefix();
    store = redisStore({ url: `redis://127.0.0.1:${proxy.port}`, keyPrefix });
    env = await startPassThroughAuthorizer({ store });
    const res = await env.api('/openid4/vp/v1_0/authorizations', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: contractDcql } }),
    });
    const json = (await res.json()) as Record<string, string>;
    expect(res.status).toBe(201);
    const status = () => env!.api(`/openid4/vp/v1_0/authorizations/${json.authorizationId}/status`);

    await proxy.down();
    await expect503(await status(), 'rp');
    await proxy.up();

    let after = await status();
    for (const deadline = Date.now() + 15_000; after.status === 503 && Date.now() < deadline; after = await status()) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual({ status: 'created' });

    const admin = testClient(url!);
    await deleteKeys(admin, keyPrefix);
    await admin.quit();
  });
});
