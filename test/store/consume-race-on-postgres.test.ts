import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { postgresUrlForTests, testSchema } from '@vp-authorizer/testing';
import { migrate, postgresStore } from '@vp-authorizer/postgres';
import { bundleWorker, type BundledWorker } from '../__fixtures__/worker-processes.js';
import { race } from './race.js';

const url = postgresUrlForTests('test/store/consume-race-on-postgres.test.ts');

const CODES = 1_000;
const PROCESSES = 2;
const CONSUMES_PER_CODE_PER_PROCESS = 5; // 1,000 codes × 5 × 2 processes = 10,000 racing consumes

describe.skipIf(url === undefined)('response codes across processes (one PostgreSQL)', () => {
  let worker: BundledWorker;
  let admin: pg.Pool;
  const schema = testSchema();

  beforeAll(async () => {
    worker = await bundleWorker('test/store/race-worker.ts');
    admin = new pg.Pool({ connectionString: url, max: 2 });
    await migrate(admin, { schema });
  });
  afterAll(async () => {
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
    await worker.dispose();
  });

  it('10,000 consumes of 1,000 codes racing in two processes: every code is consumed exactly once in total', async () => {
    const store = postgresStore({ url: url!, schema, cleanupIntervalMs: 0 });
    const keys = Array.from({ length: CODES }, () => `race-instance:${randomBytes(16).toString('base64url')}`);
    for (const key of keys) await store.put(key, { instanceId: 'race-instance', authorizationId: key.slice(-8) }, 60_000);
    await store.close();

    const tasks = Array.from({ length: PROCESSES }, (_, p) => ({
      kind: 'consume' as const,
      // Every process asks for every code several times, each in its own order.
      keys: shuffle(keys.flatMap((key) => Array.from({ length: CONSUMES_PER_CODE_PER_PROCESS }, () => key)), p),
    }));
    const result = await race(worker.file, { kind: 'postgres', url: url!, schema }, tasks);

    expect(result.operations).toBe(10_000);
    const allWins = result.won.flat();
    const doubles = allWins.length - new Set(allWins).size;
    console.log(`[race] postgres consumes: ${result.operations} racing consumes of ${CODES} codes, ${allWins.length} won, ${doubles} double consumes (per process: ${result.won.map((w) => w.length).join(' + ')})`);
    expect(doubles).toBe(0);
    expect(allWins).toHaveLength(CODES);
    expect(new Set(allWins)).toEqual(new Set(keys));
    // Nothing is left to consume (checked in the table itself).
    const left = await admin.query(`SELECT count(*)::int AS n FROM ${schema}.vpa_response_codes WHERE key = ANY($1::text[])`, [keys]);
    expect(left.rows[0].n).toBe(0);
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
