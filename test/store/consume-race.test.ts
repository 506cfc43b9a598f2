import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { redisStore } from '@vp-authorizer/redis';
import { deleteKeys, redisUrlForTests, testClient, testPrefix } from '@vp-authorizer/testing/redis';
import { bundleWorker, type BundledWorker } from '../__fixtures__/worker-processes.js';
import { race } from './race.js';

const url = redisUrlForTests('test/store/consume-race.test.ts');

const CODES = 100;
const PROCESSES = 2;
const CONSUMES_PER_CODE_PER_PROCESS = 10; // 100 codes × 10 × 2 processes = 2,000 racing consumes

describe.skipIf(url === undefined)('response codes across processes (one Redis)', () => {
  let worker: BundledWorker;
  let admin: ReturnType<typeof testClient>;
  const keyPrefix = testPrefix();

  beforeAll(async () => {
    worker = await bundleWorker('test/store/race-worker.ts');
    admin = testClient(url!);
  });
  afterAll(async () => {
    await deleteKeys(admin, keyPrefix);
    await admin.quit();
    await worker.dispose();
  });

  it('2,000 consumes of 100 codes racing in two processes: every code is consumed exactly once in total', async () => {
    const store = redisStore({ url: url!, keyPrefix });
    const keys = Array.from({ length: CODES }, () => `race-instance:${randomBytes(16).toString('base64url')}`);
    for (const key of keys) await store.put(key, { instanceId: 'race-instance', authorizationId: key.slice(-8) }, 60_000);
    await store.close();

    const tasks = Array.from({ length: PROCESSES }, (_, p) => ({
      kind: 'consume' as const,
      // Every process asks for every code several times, each in its own order.
      keys: shuffle(keys.flatMap((key) => Array.from({ length: CONSUMES_PER_CODE_PER_PROCESS }, () => key)), p),
    }));
    const result = await race(worker.file, { kind: 'redis', url: url!, keyPrefix }, tasks);

    expect(result.operations).toBe(2_000);
    const allWins = result.won.flat();
    expect(allWins).toHaveLength(CODES);
    expect(new Set(allWins)).toEqual(new Set(keys));
    // Nothing is left to consume.
    expect(await admin.exists(...keys.map((key) => `${keyPrefix}c:${key}`))).toBe(0);
  });
});

/** Deterministic shuffle (seeded per process) so the two processes ask in different orders. */
function shuffle<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = 0x9e3779b9 ^ (seed + 1);
  for (let i = out.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
