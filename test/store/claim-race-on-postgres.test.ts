import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { makeTestRecord, postgresUrlForTests, testSchema } from '@vp-authorizer/testing';
import { migrate, postgresStore } from '@vp-authorizer/postgres';
import { bundleWorker, type BundledWorker } from '../__fixtures__/worker-processes.js';
import { race } from './race.js';

const url = postgresUrlForTests('test/store/claim-race-on-postgres.test.ts');

const AUTHORIZATIONS = 1_000;
const ATTEMPTS_PER_PROCESS = 2;

describe.skipIf(url === undefined)('claiming a wallet response across processes (one PostgreSQL)', () => {
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

  it('1,000 authorizations, each claimed by both processes at once (twice each): exactly one claim per authorization wins, and the stored record is the winner’s', async () => {
    const store = postgresStore({ url: url!, schema, cleanupIntervalMs: 0 });
    const records = Array.from({ length: AUTHORIZATIONS }, () => makeTestRecord({ instanceId: 'race-instance', status: 'pending' }));
    for (const record of records) await store.create(record, 60_000);
    const targets = records.map(({ instanceId, id }) => ({ instanceId, id }));

    const result = await race(worker.file, { kind: 'postgres', url: url!, schema }, [
      { kind: 'claim', targets, attempts: ATTEMPTS_PER_PROCESS, worker: 0 },
      { kind: 'claim', targets: [...targets].reverse(), attempts: ATTEMPTS_PER_PROCESS, worker: 1 },
    ]);

    expect(result.operations).toBe(AUTHORIZATIONS * ATTEMPTS_PER_PROCESS * 2);
    const wins = result.won.flat().map((w) => {
      const [id, marker] = w.split('/');
      return { id: id!, marker: marker! };
    });
    const doubles = wins.length - new Set(wins.map((w) => w.id)).size;
    console.log(`[race] postgres claims: ${result.operations} racing compare-and-sets on ${AUTHORIZATIONS} authorizations, ${wins.length} won, ${doubles} double accepts (per process: ${result.won.map((w) => w.length).join(' + ')})`);
    expect(doubles).toBe(0);
    expect(wins).toHaveLength(AUTHORIZATIONS);
    expect(new Set(wins.map((w) => w.id))).toEqual(new Set(records.map((r) => r.id)));
    // The stored record is the winner's claim, at version 2 (checked in the table itself).
    const { rows } = await admin.query<{ id: string; version: number; record: { policyResults: { data: { marker: string } }[] } }>(
      `SELECT id, version, record FROM ${schema}.vpa_authorizations WHERE instance_id = 'race-instance'`,
    );
    const stored = new Map(rows.map((row) => [row.id, row]));
    for (const win of wins) {
      expect(stored.get(win.id)?.version).toBe(2);
      expect(stored.get(win.id)?.record.policyResults[0]?.data).toEqual({ marker: win.marker });
    }
    await store.close();
  });
});
