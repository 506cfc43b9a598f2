import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { ConfigError, isStoreUnavailableError, type AuthorizationRecord } from '@vp-authorizer/core';
import { makeTestRecord, postgresUrlForTests, testSchema } from '@vp-authorizer/testing';
import { LATEST_SCHEMA_VERSION, SchemaVersionError, migrate, postgresStore } from '@vp-authorizer/postgres';

const url = postgresUrlForTests('packages/postgres/test/postgres-store.test.ts');
const bin = fileURLToPath(new URL('../bin/vp-authorizer-postgres.js', import.meta.url));
const run = promisify(execFile);

/** The rejection of `promise` (fails the test if it resolves). */
async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('postgresStore options', () => {
  it('refuses a schema that is not a plain lower-case identifier (it is spliced into SQL)', () => {
    for (const schema of ['Public', 'a-b', 'x; DROP TABLE y', '', '1abc', 'a'.repeat(64)]) {
      expect(() => postgresStore({ url: 'postgres://127.0.0.1:1/x', schema }), schema).toThrow(ConfigError);
    }
  });

  it('needs exactly one way to reach PostgreSQL', async () => {
    expect(() => postgresStore({})).toThrow(ConfigError);
    const pool = new pg.Pool({ connectionString: 'postgres://127.0.0.1:1/x' });
    expect(() => postgresStore({ pool, url: 'postgres://127.0.0.1:1/x' })).toThrow(ConfigError);
    expect(() => postgresStore({ pool, maxConnections: 3 })).toThrow(ConfigError);
    await pool.end();
  });

  it('refuses timeouts that are not positive or longer than a node timer can wait, and a pool of no connections', () => {
    for (const value of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31]) {
      expect(() => postgresStore({ url: 'postgres://127.0.0.1:1/x', statementTimeoutMs: value }), `statementTimeoutMs ${value}`).toThrow(ConfigError);
      expect(() => postgresStore({ url: 'postgres://127.0.0.1:1/x', poolWaitMs: value }), `poolWaitMs ${value}`).toThrow(ConfigError);
    }
    expect(() => postgresStore({ url: 'postgres://127.0.0.1:1/x', maxConnections: 0 })).toThrow(ConfigError);
  });
});

// Needs no server: nothing listens on the port, which is the point.
describe('postgresStore when PostgreSQL is unreachable', () => {
  it('fails every operation with StoreUnavailableError, without waiting longer than the pool wait', async () => {
    const store = postgresStore({ url: `postgres://postgres@127.0.0.1:${await deadPort()}/postgres`, poolWaitMs: 300, cleanupIntervalMs: 0 });
    const record = makeTestRecord();
    const operations = {
      create: () => store.create(record, 60_000),
      get: () => store.get(record.instanceId, record.id),
      compareAndSet: () => store.compareAndSet({ ...record, version: 2 }, 1),
      listDueForExpiry: () => store.listDueForExpiry(Date.now(), 10),
      put: () => store.put('i1:k', { instanceId: 'i1', authorizationId: 'a1' }, 60_000),
      consume: () => store.consume('i1:k'),
      ping: () => store.ping(),
    };
    for (const [name, operation] of Object.entries(operations)) {
      const error = await failureOf(operation());
      expect(isStoreUnavailableError(error), `${name}: ${String(error)}`).toBe(true);
      expect((error as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0);
    }
    await store.close();
  });
});

describe.skipIf(url === undefined)('postgresStore on PostgreSQL', () => {
  let admin: pg.Pool;
  const schemas: string[] = [];
  const freshSchema = () => {
    const schema = testSchema();
    schemas.push(schema);
    return schema;
  };
  beforeAll(() => {
    admin = new pg.Pool({ connectionString: url, max: 10 });
  });
  afterAll(async () => {
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  describe('migrations', () => {
    it('a store on a database never migrated refuses its first operation with a ConfigError naming the migrate step, and works once migrated', async () => {
      const schema = freshSchema();
      const store = postgresStore({ pool: admin, schema, cleanupIntervalMs: 0 });
      const error = await failureOf(store.get('i', 'a'));
      expect(error).toBeInstanceOf(SchemaVersionError);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain(`vp-authorizer-postgres migrate --url <url> --schema ${schema}`);
      expect(isStoreUnavailableError(error)).toBe(false);
      await migrate(admin, { schema });
      expect(await store.get('i', 'a')).toBeNull();
      await store.close();
    });

    it('nothing is created at import or construction: the tables appear only when migrate runs', async () => {
      const schema = freshSchema();
      postgresStore({ pool: admin, schema, cleanupIntervalMs: 0 });
      const before = await admin.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [schema]);
      expect(before.rowCount).toBe(0);
      await migrate(url!, { schema });
      const tables = await admin.query<{ table_name: string }>('SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name', [schema]);
      expect(tables.rows.map((r) => r.table_name)).toEqual(['vpa_authorizations', 'vpa_response_codes', 'vpa_schema_version', 'vpa_webhook_outbox']);
      const indexes = await admin.query<{ indexname: string }>('SELECT indexname FROM pg_indexes WHERE schemaname = $1 ORDER BY indexname', [schema]);
      expect(indexes.rows.map((r) => r.indexname)).toEqual([
        'vpa_authorizations_due_at',
        'vpa_authorizations_kept_until',
        'vpa_authorizations_pkey',
        'vpa_response_codes_kept_until',
        'vpa_response_codes_pkey',
        'vpa_schema_version_pkey',
        'vpa_webhook_outbox_lease_until',
        'vpa_webhook_outbox_pkey',
      ]);
    });

    it('a schema at version 1 (before the webhook outbox) is refused by the store until migrate adds version 2, keeping its records', async () => {
      const schema = freshSchema();
      await migrate(admin, { schema });
      // Back to what version 1 shipped: the tables and indexes of migration 1 only.
      await admin.query(`DROP TABLE ${schema}.vpa_webhook_outbox; DROP FUNCTION ${schema}.vpa_add_webhook; DELETE FROM ${schema}.vpa_schema_version WHERE version = 2`);
      const store = postgresStore({ pool: admin, schema, cleanupIntervalMs: 0 });
      const refused = await failureOf(store.get('i', 'a'));
      expect(refused).toBeInstanceOf(SchemaVersionError);
      expect((refused as Error).message).toContain('vp-authorizer-postgres migrate');
      await admin.query(`INSERT INTO ${schema}.vpa_response_codes (key, entry, kept_until) VALUES ('i:kept', '{"instanceId":"i","authorizationId":"a"}', now() + interval '1 minute')`);
      expect(await migrate(admin, { schema })).toEqual({ schema, from: 1, to: 2, applied: [2] });
      expect(await store.consume('i:kept')).toEqual({ instanceId: 'i', authorizationId: 'a' });
      expect(await store.addWebhook({ instanceId: 'i', id: 'msg_a_1_created', authorizationId: 'a', sequence: 1, url: 'https://rp.example/h', eventType: 'authorization.created', body: '{}', attempts: 0 }, { holder: 'h', until: 1 }, 10)).toBe('queued');
    });

    it('migrate is idempotent, and processes migrating at once apply each version exactly once', async () => {
      const schema = freshSchema();
      const results = await Promise.all([migrate(admin, { schema }), migrate(url!, { schema }), migrate(admin, { schema })]);
      expect(results.map((r) => r.applied).flat()).toEqual([1, 2]);
      expect(results.every((r) => r.to === LATEST_SCHEMA_VERSION)).toBe(true);
      expect(await migrate(admin, { schema })).toEqual({ schema, from: LATEST_SCHEMA_VERSION, to: LATEST_SCHEMA_VERSION, applied: [] });
      const versions = await admin.query(`SELECT version FROM ${schema}.vpa_schema_version`);
      expect(versions.rows).toEqual([{ version: 1 }, { version: 2 }]);
    });

    it('a schema migrated by a newer version is refused by migrate and by the store (upgrade every process)', async () => {
      const schema = freshSchema();
      await migrate(admin, { schema });
      await admin.query(`INSERT INTO ${schema}.vpa_schema_version (version, description) VALUES (99, 'from the future')`);
      const refused = await failureOf(migrate(admin, { schema }));
      expect(refused).toBeInstanceOf(SchemaVersionError);
      expect((refused as SchemaVersionError).foundVersion).toBe(99);
      const store = postgresStore({ pool: admin, schema, cleanupIntervalMs: 0 });
      expect(String(await failureOf(store.consume('i:k')))).toContain('Upgrade @vp-authorizer/postgres');
    });

    it('two stores on different schemas (long names, alike but for their end) share one pool without mixing their prepared statements', async () => {
      const base = `vpa_long_${'x'.repeat(48)}`;
      const [a, b] = [`${base}_a`, `${base}_b`];
      schemas.push(a, b);
      const shared = new pg.Pool({ connectionString: url, max: 1 });
      try {
        for (const schema of [a, b]) await migrate(shared, { schema });
        const storeA = postgresStore({ pool: shared, schema: a, cleanupIntervalMs: 0 });
        const storeB = postgresStore({ pool: shared, schema: b, cleanupIntervalMs: 0 });
        await storeA.put('i:k', { instanceId: 'i', authorizationId: 'in-a' }, 60_000);
        await storeB.put('i:k', { instanceId: 'i', authorizationId: 'in-b' }, 60_000);
        expect(await storeA.consume('i:k')).toEqual({ instanceId: 'i', authorizationId: 'in-a' });
        expect(await storeB.peek('i:k')).toEqual({ instanceId: 'i', authorizationId: 'in-b' });
      } finally {
        await shared.end();
      }
    });

    it('the vp-authorizer-postgres command migrates a schema, reports it up to date the second time, and refuses to run without a URL', async () => {
      const schema = freshSchema();
      const env = { ...process.env, POSTGRES_URL: '' };
      const first = await run(process.execPath, [bin, 'migrate', '--url', url!, '--schema', schema], { env });
      expect(first.stdout).toContain(`schema "${schema}": applied 1, 2 (version 0 → 2)`);
      const second = await run(process.execPath, [bin, 'migrate', '--schema', schema], { env: { ...env, POSTGRES_URL: url! } });
      expect(second.stdout).toContain(`schema "${schema}" is up to date (version 2)`);
      const missing = await failureOf(run(process.execPath, [bin, 'migrate'], { env }));
      expect((missing as { code: number }).code).toBe(2);
      expect((missing as { stderr: string }).stderr).toContain('Pass --url or set POSTGRES_URL');
      // A failure names its kind, never the URL (it may carry a password).
      const secretUrl = `postgres://postgres:s3cret-pw@127.0.0.1:${await deadPort()}/postgres`;
      const unreachable = await failureOf(run(process.execPath, [bin, 'migrate', '--url', secretUrl], { env }));
      expect((unreachable as { code: number }).code).toBe(1);
      expect((unreachable as { stderr: string }).stderr).toContain('PostgreSQL is unavailable');
      expect((unreachable as { stderr: string }).stderr).not.toContain('s3cret-pw');
    });
  });

  describe('behaviour beyond the contract', () => {
    let schema: string;
    beforeAll(async () => {
      schema = freshSchema();
      await migrate(admin, { schema });
    });

    it('a statement blocked longer than statementTimeoutMs is cancelled by the server: StoreUnavailableError, nothing written', async () => {
      const store = postgresStore({ url: url!, schema, statementTimeoutMs: 200, cleanupIntervalMs: 0 });
      const record = makeTestRecord({ status: 'pending' });
      await store.create(record, 60_000);
      // Another session holds the row lock, so the compare-and-set waits on it.
      const holder = await admin.connect();
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM ${schema}.vpa_authorizations WHERE instance_id = $1 AND id = $2 FOR UPDATE`, [record.instanceId, record.id]);
      try {
        const error = await failureOf(store.compareAndSet({ ...record, version: 2, status: 'authorized' }, 1));
        expect(isStoreUnavailableError(error), String(error)).toBe(true);
        expect((error as Error).message).toBe('PostgreSQL is unavailable (statement timeout).');
        expect(((error as Error).cause as { code?: string }).code).toBe('57014');
      } finally {
        await holder.query('ROLLBACK');
        holder.release();
      }
      expect(await store.get(record.instanceId, record.id)).toEqual(record);
      // The write goes through once the lock is gone.
      expect(await store.compareAndSet({ ...record, version: 2, status: 'authorized' }, 1)).toBe(true);
      await store.close();
    });

    it('an exhausted pool makes the next operation wait at most poolWaitMs, then StoreUnavailableError; it serves again once a connection is free', async () => {
      const store = postgresStore({ url: url!, schema, maxConnections: 1, poolWaitMs: 200, statementTimeoutMs: 10_000, cleanupIntervalMs: 0 });
      const record = makeTestRecord({ status: 'pending' });
      await store.create(record, 60_000);
      const holder = await admin.connect();
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM ${schema}.vpa_authorizations WHERE instance_id = $1 AND id = $2 FOR UPDATE`, [record.instanceId, record.id]);
      // This one takes the only connection and waits on the lock.
      const blocked = store.compareAndSet({ ...record, version: 2, status: 'authorized' }, 1);
      let second: unknown;
      try {
        second = await failureOf(store.get(record.instanceId, record.id));
      } finally {
        await holder.query('ROLLBACK');
        holder.release();
      }
      expect(isStoreUnavailableError(second), String(second)).toBe(true);
      expect(((second as Error).cause as Error).message).toBe('timeout exceeded when trying to connect');
      expect(await blocked).toBe(true);
      expect((await store.get(record.instanceId, record.id))?.status).toBe('authorized');
      await store.close();
    });

    it('deleteExpired removes rows past their retention in batches (checked in the tables) and keeps live ones', async () => {
      const store = postgresStore({ pool: admin, schema, cleanupIntervalMs: 0 });
      const instanceId = `cleanup-${Date.now()}`;
      const brief = Array.from({ length: 7 }, () => makeTestRecord({ instanceId }));
      const kept = makeTestRecord({ instanceId });
      for (const record of brief) await store.create(record, 50);
      await store.create(kept, 60_000);
      await store.put(`${instanceId}:brief`, { instanceId, authorizationId: 'a' }, 50);
      await store.put(`${instanceId}:kept`, { instanceId, authorizationId: 'b' }, 60_000);
      await new Promise((resolve) => setTimeout(resolve, 150));
      const count = async (table: string, where: string) => Number((await admin.query(`SELECT count(*) AS n FROM ${schema}.${table} WHERE ${where}`, [instanceId])).rows[0].n);
      expect(await count('vpa_authorizations', 'instance_id = $1')).toBe(8);
      // Batches of 3: 7 rows take three statements, all within one call.
      expect(await store.deleteExpired({ batchSize: 3 })).toBeGreaterThanOrEqual(8);
      expect(await count('vpa_authorizations', 'instance_id = $1')).toBe(1);
      expect(await count('vpa_response_codes', "key LIKE $1 || ':%'")).toBe(1);
      expect(await store.get(instanceId, kept.id)).toEqual(kept);
      expect(await store.peek(`${instanceId}:kept`)).toEqual({ instanceId, authorizationId: 'b' });
    });

    it('an id whose record passed its retention (not yet deleted) can be created again', async () => {
      const store = postgresStore({ pool: admin, schema, cleanupIntervalMs: 0 });
      const old = makeTestRecord();
      await store.create(old, 50);
      await new Promise((resolve) => setTimeout(resolve, 150));
      const again: AuthorizationRecord = { ...makeTestRecord({ instanceId: old.instanceId, id: old.id }), status: 'pending' };
      await store.create(again, 60_000);
      expect(await store.get(old.instanceId, old.id)).toEqual(again);
      await expect(store.create(again, 60_000)).rejects.toThrow('already exists');
    });

    it('keeps any JSON string a wallet may send, NUL characters included (a json column, not jsonb)', async () => {
      const store = postgresStore({ pool: admin, schema, cleanupIntervalMs: 0 });
      const record = makeTestRecord({ status: 'authorized' });
      record.credentials = [{ path: ['pid', 0], format: 'dc+sd-jwt', credentialType: 'pid', claims: { given_name: 'a\u0000b', emoji: '😀', escaped: '"\\' } }];
      await store.create(record, 60_000);
      expect(await store.get(record.instanceId, record.id)).toEqual(record);
    });

    it('the cleanup timer runs deleteExpired by itself and stops at close', async () => {
      const store = postgresStore({ pool: admin, schema, cleanupIntervalMs: 100 });
      const record = makeTestRecord();
      await store.create(record, 20);
      const gone = async () => (await admin.query(`SELECT 1 FROM ${schema}.vpa_authorizations WHERE id = $1`, [record.id])).rowCount === 0;
      let deleted = false;
      for (let i = 0; i < 50 && !deleted; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        deleted = await gone();
      }
      expect(deleted).toBe(true);
      await store.close();
    });
  });
});
