import { afterAll, beforeAll, describe } from 'vitest';
import pg from 'pg';
import { describeStoreContract } from '@vp-authorizer/testing/contracts';
import { migrate, postgresStore } from '@vp-authorizer/postgres';
import { postgresUrlForTests, startTcpProxy, testSchema } from '@vp-authorizer/testing';

const url = postgresUrlForTests('packages/postgres/test/postgres-store.contract.test.ts');

describe.skipIf(url === undefined)('postgresStore', () => {
  // One schema for the file: cases isolate by instance id and random keys, as on a shared database.
  const schema = testSchema();
  let admin: pg.Pool;
  beforeAll(async () => {
    admin = new pg.Pool({ connectionString: url, max: 20 });
    await migrate(admin, { schema });
  });
  afterAll(async () => {
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  });

  describeStoreContract('postgresStore with a pool passed in', {
    realTtl: true,
    async create() {
      return { store: postgresStore({ pool: admin, schema, cleanupIntervalMs: 0 }) };
    },
  });

  // Through a TCP proxy, so that the contract can cut the connection (readiness under an outage).
  describeStoreContract('postgresStore creating its own pool from a URL', {
    realTtl: true,
    outages: true,
    async create() {
      const proxy = await startTcpProxy(Number(new URL(url!).port));
      // The contract's 200 parallel consumes queue for 10 connections: on a loaded test host that
      // wait can pass the default second, which would answer 503 (the bound is tested on its own).
      const store = postgresStore({ url: `postgres://postgres@127.0.0.1:${proxy.port}/postgres`, schema, poolWaitMs: 10_000 });
      return {
        store,
        outage: proxy,
        async cleanup() {
          await store.close();
          await proxy.close();
        },
      };
    },
  });
});
