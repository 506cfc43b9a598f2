import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { describeHttpContract, fetchHandlerTarget } from '@vp-authorizer/testing/contracts';
import { migrate, postgresStore } from '@vp-authorizer/postgres';
import { postgresUrlForTests, testSchema } from '@vp-authorizer/testing';

// The whole HTTP contract with the authorizer on the Postgres store instead of the in-memory one:
// same routes, same flows, every record and response code going through PostgreSQL.
const url = postgresUrlForTests('test/adapters/fetch-handler-postgres.test.ts');

describe.skipIf(url === undefined)('fetch handler on the Postgres store', () => {
  const schema = testSchema();
  let admin: pg.Pool;

  beforeAll(async () => {
    admin = new pg.Pool({ connectionString: url, max: 2 });
    await migrate(admin, { schema });
  });
  afterAll(async () => {
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  });

  describeHttpContract('fetch handler (authorizer.fetch on node:http) on postgresStore', fetchHandlerTarget(), {
    async store() {
      const store = postgresStore({ url: url!, schema, maxConnections: 4 });
      return { store, cleanup: () => store.close() };
    },
  });

  // Guards against the option being ignored (the contract would then pass on a memory store).
  it('the contract wrote its authorizations to PostgreSQL in the run schema', async () => {
    const { rows } = await admin.query<{ n: string }>(`SELECT count(*) AS n FROM ${schema}.vpa_authorizations`);
    expect(Number(rows[0]!.n)).toBeGreaterThan(0);
  });
});
