/**
 * The store the processes of a fault test share, opened from its description (the race harness's
 * `RaceStore`: a Redis key prefix, or a Postgres schema migrated by the test), with the bounds a
 * server would use: one second per store call, no background cleanup (the test sweeps itself).
 */
import { postgresStore, type PostgresStore } from '@vp-authorizer/postgres';
import { redisStore, type RedisStore } from '@vp-authorizer/redis';
import type { RaceStore } from '../../store/race-worker.js';

export function connectStore(target: RaceStore): RedisStore | PostgresStore {
  return target.kind === 'redis'
    ? redisStore({ url: target.url, keyPrefix: target.keyPrefix, commandTimeoutMs: 1_000 })
    : postgresStore({ url: target.url, schema: target.schema, statementTimeoutMs: 1_000, cleanupIntervalMs: 0 });
}
