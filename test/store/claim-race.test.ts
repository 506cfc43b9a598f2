import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeTestRecord } from '@vp-authorizer/testing';
import { redisStore } from '@vp-authorizer/redis';
import { deleteKeys, redisUrlForTests, testClient, testPrefix } from '@vp-authorizer/testing/redis';
import { bundleWorker, type BundledWorker } from '../__fixtures__/worker-processes.js';
import { race } from './race.js';

const url = redisUrlForTests('test/store/claim-race.test.ts');

const AUTHORIZATIONS = 100;
const ATTEMPTS_PER_PROCESS = 5;

describe.skipIf(url === undefined)('claiming a wallet response across processes (one Redis)', () => {
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

  it('two processes racing compare-and-set claims on the same authorizations: exactly one claim per authorization wins', async () => {
    const store = redisStore({ url: url!, keyPrefix });
    const records = Array.from({ length: AUTHORIZATIONS }, () => makeTestRecord({ instanceId: 'race-instance', status: 'pending' }));
    for (const record of records) await store.create(record, 60_000);
    const targets = records.map(({ instanceId, id }) => ({ instanceId, id }));

    const result = await race(worker.file, { kind: 'redis', url: url!, keyPrefix }, [
      { kind: 'claim', targets, attempts: ATTEMPTS_PER_PROCESS, worker: 0 },
      { kind: 'claim', targets: [...targets].reverse(), attempts: ATTEMPTS_PER_PROCESS, worker: 1 },
    ]);

    expect(result.operations).toBe(AUTHORIZATIONS * ATTEMPTS_PER_PROCESS * 2);
    const wins = result.won.flat().map((w) => {
      const [id, marker] = w.split('/');
      return { id: id!, marker: marker! };
    });
    expect(wins).toHaveLength(AUTHORIZATIONS);
    expect(new Set(wins.map((w) => w.id))).toEqual(new Set(records.map((r) => r.id)));
    // The stored record is the winner's claim, at version 2.
    for (const win of wins) {
      const stored = await store.get('race-instance', win.id);
      expect(stored?.version).toBe(2);
      expect(stored?.policyResults[0]?.data).toEqual({ marker: win.marker });
    }
    await store.close();
  });
});
