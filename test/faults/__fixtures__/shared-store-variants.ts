/**
 * The shipped stores a multi-process fault test runs on, each started (or migrated) for one run
 * and removed after it: a private redis-server with a key prefix of its own, and a fresh schema
 * on the PostgreSQL of scripts/with-postgres.mjs. A store missing here is skipped loudly.
 */
import pg from 'pg';
import { migrate } from '@vp-authorizer/postgres';
import { postgresUrlForTests, testSchema } from '@vp-authorizer/testing';
import type { RaceStore } from '../../store/race-worker.js';
import { redisAvailable, startRedis } from './redis-process.js';

export interface StoreVariant {
  name: 'Redis' | 'PostgreSQL';
  /** True when the store is missing here; the check that decided it says why, loudly (no silent skip). */
  skip: boolean;
  start(): Promise<{ target: RaceStore; dispose(): Promise<void> }>;
}

/** Both shipped stores for the test file `file` (named in the skip warnings); `keyPrefix` starts the Redis key prefix. */
export function sharedStoreVariants(file: string, keyPrefix: string): StoreVariant[] {
  const postgresUrl = postgresUrlForTests(file);
  const redis = redisAvailable();
  if (!redis) console.warn(`REDIS SUITE SKIPPED: redis-server not found on PATH (install: apt-get install -y redis-server) (skipped: the Redis half of ${file})`);
  return [
    {
      name: 'Redis',
      skip: !redis,
      async start() {
        const server = await startRedis({ persistent: false });
        return { target: { kind: 'redis', url: server.url, keyPrefix: `${keyPrefix}:${Math.random().toString(36).slice(2, 10)}:` }, dispose: () => server.dispose() };
      },
    },
    {
      name: 'PostgreSQL',
      skip: postgresUrl === undefined,
      async start() {
        // A schema of this run's own, migrated before any process connects; dropped afterwards.
        const schema = testSchema();
        const admin = new pg.Pool({ connectionString: postgresUrl, max: 1 });
        await migrate(admin, { schema });
        return {
          target: { kind: 'postgres', url: postgresUrl!, schema },
          async dispose() {
            await admin.query(`DROP SCHEMA ${schema} CASCADE`);
            await admin.end();
          },
        };
      },
    },
  ];
}
