// GET /health is liveness (touches nothing); GET /health/ready is readiness (touches the store):
// 204 while the store answers, 503 `store.unavailable` + Retry-After while it does not. Probes
// share one store round trip and reuse its answer for a second of the authorizer's clock, which
// these tests move forward to see a change of the store.
import { afterEach, describe, expect, it } from 'vitest';
import { memoryStore, type AuthorizerStore } from '@vp-authorizer/core';
import { redisStore, type RedisStore } from '@vp-authorizer/redis';
import { startPassThroughAuthorizer, startTcpProxy, type TcpProxy } from '@vp-authorizer/testing';
import { redisUrlForTests } from '@vp-authorizer/testing/redis';

const url = redisUrlForTests('test/store/readiness-follows-the-store.test.ts');

let env: Awaited<ReturnType<typeof startPassThroughAuthorizer>> | undefined;
let store: RedisStore | undefined;
let proxy: TcpProxy | undefined;
afterEach(async () => {
  await env?.close();
  await store?.close();
  await proxy?.close();
  env = store = proxy = undefined;
});

const probe = (path: '/health' | '/health/ready') => fetch(`${env!.base}${path}`);

/**
 * A clock that moves only when a test moves it: past READINESS_CACHE_MS, the next probe asks the
 * store again. (Following the real time, a slow machine let the cache lapse between two probes.)
 */
let skew = 0;
const start = Date.now();
const clock = { now: () => start + skew };
const pastTheCache = () => void (skew += 1_001);

async function expectUnready(): Promise<void> {
  const res = await probe('/health/ready');
  expect(res.status).toBe(503);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(((await res.json()) as { type: string }).type).toBe('store.unavailable');
}

/** Readiness once the client has reconnected (it retries on its own schedule; bounded). */
async function readyAgain(): Promise<number> {
  let status = 0;
  for (let attempt = 0; attempt < 100 && status !== 204; attempt++) {
    pastTheCache();
    status = (await probe('/health/ready')).status;
    if (status !== 204) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return status;
}

describe.skipIf(url === undefined)('readiness on Redis behind a TCP proxy that is cut', () => {
  it('is 204, then 503 store.unavailable while the connection is cut (liveness stays 204), then 204 again', async () => {
    proxy = await startTcpProxy(Number(new URL(url!).port));
    store = redisStore({ url: `redis://127.0.0.1:${proxy.port}` });
    env = await startPassThroughAuthorizer({ store, clock });
    expect((await probe('/health/ready')).status).toBe(204);

    await proxy.down();
    pastTheCache();
    await expectUnready();
    expect((await probe('/health')).status).toBe(204);

    await proxy.up();
    expect(await readyAgain()).toBe(204);
  });
});

describe('readiness with stores that are not Redis', () => {
  it('the memory store is ready; HEAD answers the same without a body', async () => {
    env = await startPassThroughAuthorizer();
    expect((await probe('/health/ready')).status).toBe(204);
    const head = await fetch(`${env.base}/health/ready`, { method: 'HEAD' });
    expect(head.status).toBe(204);
  });

  it('a custom store without ping() is probed with a read: its failure, whatever the error class, is 503', async () => {
    const inner = memoryStore({ sweepIntervalMs: 0 });
    let reachable = true;
    const reads: string[] = [];
    const custom: AuthorizerStore = {
      create: (record, ttl) => inner.create(record, ttl),
      get: async (instanceId, id) => {
        reads.push(`${instanceId}/${id}`);
        if (!reachable) throw new Error('ECONNREFUSED');
        return inner.get(instanceId, id);
      },
      compareAndSet: (next, expected) => inner.compareAndSet(next, expected),
      listDueForExpiry: (now, limit) => inner.listDueForExpiry(now, limit),
      put: (key, value, ttl) => inner.put(key, value, ttl),
      peek: (key) => inner.peek(key),
      consume: (key) => inner.consume(key),
    };
    env = await startPassThroughAuthorizer({ store: custom, clock });
    expect((await probe('/health/ready')).status).toBe(204);
    expect(reads).toHaveLength(1);
    reachable = false;
    pastTheCache();
    await expectUnready();
  });

  it('concurrent probes share one store round trip; the answer, ready or not, is reused for a second of the clock', async () => {
    const inner = memoryStore({ sweepIntervalMs: 0 });
    let pings = 0;
    let reachable = true;
    let answer: (() => void) | undefined;
    const counted: AuthorizerStore = {
      ...inner,
      ping: () => {
        pings++;
        if (!reachable) return Promise.reject(new Error('ECONNREFUSED'));
        // Held until the test lets it answer, so that every probe below arrives while it is in flight.
        return new Promise<void>((resolve) => (answer = resolve));
      },
    };
    env = await startPassThroughAuthorizer({ store: counted, clock });
    const probes = Array.from({ length: 200 }, () => probe('/health/ready'));
    await expect.poll(() => pings).toBe(1);
    answer!();
    expect((await Promise.all(probes)).map((r) => r.status)).toEqual(Array(200).fill(204));
    expect(pings).toBe(1);
    // Within the window: answered without the store.
    expect((await probe('/health/ready')).status).toBe(204);
    expect(pings).toBe(1);

    // After it: the store is asked again, and its failure is reused the same way.
    reachable = false;
    pastTheCache();
    await expectUnready();
    await expectUnready();
    expect(pings).toBe(2);

    // Once the store is back, the next probe after the window is ready again.
    reachable = true;
    pastTheCache();
    const recovered = probe('/health/ready');
    await expect.poll(() => pings).toBe(3);
    answer!();
    expect((await recovered).status).toBe(204);
  });

  it('a store that never answers makes readiness 503 within its bound instead of hanging the probe', async () => {
    const inner = memoryStore({ sweepIntervalMs: 0 });
    const hanging: AuthorizerStore = {
      ...inner,
      ping: () => new Promise<void>(() => undefined),
    };
    env = await startPassThroughAuthorizer({ store: hanging });
    await expectUnready();
    expect((await probe('/health')).status).toBe(204);
  });
});
