import pg from 'pg';
import {
  ConfigError,
  sweepDueAt,
  type AuthorizationRecord,
  type AuthorizerStore,
  type ExpiryCandidate,
  type ResponseCodeEntry,
} from '@vp-authorizer/core';
import { LATEST_SCHEMA_VERSION } from './migrations.js';
import { schemaNames } from './schema-names.js';
import { SchemaVersionError } from './schema-version-error.js';
import { storeStatements, type StoreStatements } from './store-statements.js';
import { toStoreError } from './to-store-error.js';

export interface PostgresStoreOptions {
  /**
   * A pool you own. The store never ends it, and cannot set its server-side statement timeout:
   * give it `statement_timeout`, `connectionTimeoutMillis` and an `error` listener (see the README).
   */
  pool?: pg.Pool;
  /** `postgres://user:pass@host:port/db` (or `?host=/socket/dir`): the store creates (and owns) a pool. */
  url?: string;
  /**
   * node-postgres pool options for a pool the store creates (host, user, ssl…; with `url`, the URL
   * wins for what it sets). `statementTimeoutMs`, `poolWaitMs` and `maxConnections` override theirs.
   */
  poolOptions?: pg.PoolConfig;
  /** Schema holding the tables (see migrate). Default `public`. */
  schema?: string;
  /**
   * Server-side bound for one statement in milliseconds (PostgreSQL `statement_timeout`), default
   * 1000. Past it the statement is cancelled (nothing written) and the operation rejects with
   * StoreUnavailableError. The client gives up 1 s later still if the server does not answer at all.
   */
  statementTimeoutMs?: number;
  /**
   * How long an operation waits for a pooled connection (or for a new one to connect) in
   * milliseconds, default 1000; then it rejects with StoreUnavailableError (HTTP 503), never hangs.
   */
  poolWaitMs?: number;
  /** Connections in a pool the store creates, default 10. */
  maxConnections?: number;
  /**
   * How often this process deletes rows whose retention has passed, in milliseconds, default
   * 60000; 0 turns it off (then call `deleteExpired` yourself). Such rows are invisible to every
   * read already; this only frees their space. Processes sharing a database share the work.
   */
  cleanupIntervalMs?: number;
}

export interface PostgresStore extends AuthorizerStore {
  /** `SELECT 1`: resolves once the database answered; rejects with StoreUnavailableError. */
  ping(): Promise<void>;
  /**
   * Deletes authorizations and response codes whose retention has passed, at most `batchSize`
   * rows of each table per statement, until none is left or `maxBatches` ran. Returns the rows deleted.
   */
  deleteExpired(options?: { batchSize?: number; maxBatches?: number }): Promise<number>;
  /** Stops the cleanup timer; ends the pool if the store created it (a pool passed in is left open). */
  close(): Promise<void>;
}

const DEFAULT_STATEMENT_TIMEOUT_MS = 1_000;
const DEFAULT_POOL_WAIT_MS = 1_000;
const DEFAULT_MAX_CONNECTIONS = 10;
const DEFAULT_CLEANUP_INTERVAL_MS = 60_000;
/** The client waits this much longer than the server's statement timeout before giving up. */
const CLIENT_GRACE_MS = 1_000;
const MAX_TIMER_MS = 2_147_483_647;
const CLEANUP_BATCH = 1_000;
const CLEANUP_MAX_BATCHES = 20;

/**
 * store (`AuthorizerStore`) on PostgreSQL ≥ 13, through node-postgres.
 *
 * Atomicity: every operation is one statement. Compare-and-set is `UPDATE … WHERE version = $n`
 * (row lock + re-check under READ COMMITTED: of concurrent writers from one version exactly one
 * updates a row); consume is `DELETE … RETURNING` (one deleter gets the row); create is one
 * `INSERT … ON CONFLICT` that only replaces a row whose retention has passed.
 *
 * Retention (`kept_until`) is computed and compared on the database clock, so processes with
 * skewed clocks agree; rows past it are invisible at once and deleted in batches later. The
 * sweep index is a partial index on `due_at` (the core's `sweepDueAt`): open records by expiry, finished ones by the erasure of their data.
 */
export function postgresStore(options: PostgresStoreOptions): PostgresStore {
  const names = schemaNames(options.schema);
  const statementTimeoutMs = checkPositive('statementTimeoutMs', options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS);
  const poolWaitMs = checkPositive('poolWaitMs', options.poolWaitMs ?? DEFAULT_POOL_WAIT_MS);
  const cleanupIntervalMs = options.cleanupIntervalMs ?? DEFAULT_CLEANUP_INTERVAL_MS;
  if (cleanupIntervalMs !== 0) checkPositive('cleanupIntervalMs', cleanupIntervalMs);
  const { pool, owned } = connect(options, statementTimeoutMs, poolWaitMs);
  const queryTimeoutMs = Math.min(statementTimeoutMs + CLIENT_GRACE_MS, MAX_TIMER_MS);
  const sql = storeStatements(names);
  // query_timeout: node-postgres' client-side bound per query (its types omit it from QueryConfig).
  const timed = (text: string, values?: unknown[], name?: string): pg.QueryConfig => {
    const config: pg.QueryConfig & { query_timeout: number } = { text, values, name, query_timeout: queryTimeoutMs };
    return config;
  };

  // The schema is checked once, before the first operation (and again after a failed check).
  let schemaOk = false;
  let schemaChecked: Promise<void> | undefined;
  const checkSchema = (): Promise<void> => {
    schemaChecked ??= pool.query<{ version: number | null }>(timed(`SELECT max(version) AS version FROM ${names.schemaVersion}`)).then(
      ({ rows }) => {
        const found = rows[0]?.version ?? 0;
        if (found > LATEST_SCHEMA_VERSION) throw SchemaVersionError.newer(names.schema, found);
        if (found < LATEST_SCHEMA_VERSION) throw SchemaVersionError.missing(names.schema, found);
        schemaOk = true;
      },
      (error: unknown) => {
        // 42P01: no version table, 3F000: no schema: never migrated.
        const code = (error as { code?: unknown }).code;
        if (code === '42P01' || code === '3F000') throw SchemaVersionError.missing(names.schema, 0);
        throw error;
      },
    );
    return schemaChecked!.catch((error: unknown) => {
      schemaChecked = undefined;
      throw toStoreError(error);
    });
  };

  /** One statement: prepared once per connection (named), bounded in time, failures mapped. */
  async function run<R extends pg.QueryResultRow>(statement: keyof StoreStatements, values: unknown[]): Promise<pg.QueryResult<R>> {
    if (!schemaOk) await checkSchema();
    try {
      return await pool.query<R>(timed(sql[statement].text, values, sql[statement].name));
    } catch (error) {
      throw toStoreError(error);
    }
  }

  let closed = false;
  let cleanupTimer: ReturnType<typeof setTimeout> | undefined;
  const scheduleCleanup = () => {
    if (cleanupIntervalMs === 0 || closed) return;
    cleanupTimer = setTimeout(() => {
      // A failed cleanup is retried at the next interval; reads never see what it left behind.
      void store.deleteExpired().catch(() => undefined).finally(scheduleCleanup);
    }, cleanupIntervalMs);
    cleanupTimer.unref();
  };

  const store: PostgresStore = {
    async create(record, ttlMs) {
      const result = await run('create', [record.instanceId, record.id, record.version, record.status, dueAt(record), checkTtl(ttlMs), JSON.stringify(record)]);
      if (result.rowCount !== 1) throw new Error('An authorization with this id already exists for this instance.');
    },

    async get(instanceId, id) {
      const { rows } = await run<{ record: AuthorizationRecord }>('get', [instanceId, id]);
      return rows[0]?.record ?? null;
    },

    async getInAny(instanceIds, id) {
      if (instanceIds.length === 0) return null;
      const { rows } = await run<{ instance_id: string; record: AuthorizationRecord }>('getInAny', [instanceIds, id]);
      for (const instanceId of instanceIds) {
        const row = rows.find((r) => r.instance_id === instanceId);
        if (row !== undefined) return row.record;
      }
      return null;
    },

    async compareAndSet(next, expectedVersion, ttlMs) {
      if (next.version !== expectedVersion + 1) throw new RangeError('compareAndSet: next.version must be expectedVersion + 1.');
      const ttl = ttlMs === undefined ? null : checkTtl(ttlMs);
      const result = await run('compareAndSet', [next.instanceId, next.id, expectedVersion, next.version, next.status, dueAt(next), ttl, JSON.stringify(next)]);
      return result.rowCount === 1;
    },

    async listDueForExpiry(now, limit) {
      const { rows } = await run<{ instance_id: string; id: string }>('listDueForExpiry', [Math.floor(now), Math.max(0, Math.floor(limit))]);
      return rows.map((row): ExpiryCandidate => ({ instanceId: row.instance_id, id: row.id }));
    },

    async put(key, value, ttlMs) {
      await run('put', [key, JSON.stringify({ instanceId: value.instanceId, authorizationId: value.authorizationId }), checkTtl(ttlMs)]);
    },

    async peek(key) {
      const { rows } = await run<{ entry: ResponseCodeEntry }>('peek', [key]);
      return rows[0]?.entry ?? null;
    },

    async consume(key) {
      const { rows } = await run<{ entry: ResponseCodeEntry; live: boolean }>('consume', [key]);
      const row = rows[0];
      return row !== undefined && row.live ? row.entry : null;
    },

    async ping() {
      // One round trip that writes nothing; a failing connection rejects within poolWaitMs.
      try {
        await pool.query(timed('SELECT 1'));
      } catch (error) {
        throw toStoreError(error);
      }
    },

    async deleteExpired({ batchSize = CLEANUP_BATCH, maxBatches = CLEANUP_MAX_BATCHES } = {}) {
      let deleted = 0;
      for (const statement of ['deleteExpiredAuthorizations', 'deleteExpiredCodes'] as const) {
        for (let batch = 0; batch < maxBatches; batch++) {
          const { rowCount } = await run(statement, [batchSize]);
          deleted += rowCount ?? 0;
          if ((rowCount ?? 0) < batchSize) break;
        }
      }
      return deleted;
    },

    async close() {
      closed = true;
      clearTimeout(cleanupTimer);
      if (owned) await pool.end();
    },
  };
  scheduleCleanup();
  return store;
}

/** The due time the sweep index holds (`sweepDueAt`): expiry for an open record, the erasure of its disclosed data for a finished one, none otherwise. */
const dueAt = (record: AuthorizationRecord): number | null => {
  const due = sweepDueAt(record);
  return due === undefined ? null : Math.floor(due);
};

function connect(options: PostgresStoreOptions, statementTimeoutMs: number, poolWaitMs: number): { pool: pg.Pool; owned: boolean } {
  if (options.pool !== undefined) {
    if (options.url !== undefined || options.poolOptions !== undefined || options.maxConnections !== undefined) {
      throw new ConfigError('postgresStore: pass either `pool` or `url`/`poolOptions`/`maxConnections`, not both.');
    }
    return { pool: options.pool, owned: false };
  }
  if (options.url === undefined && options.poolOptions === undefined) {
    throw new ConfigError('postgresStore: pass `pool`, `url` or `poolOptions`.');
  }
  const max = options.maxConnections ?? options.poolOptions?.max ?? DEFAULT_MAX_CONNECTIONS;
  if (!Number.isInteger(max) || max < 1) throw new ConfigError('postgresStore: maxConnections must be a positive integer.');
  const pool = new pg.Pool({
    ...options.poolOptions,
    ...(options.url === undefined ? {} : { connectionString: options.url }),
    max,
    // Bounded wait for a pooled connection and for connecting: past it, 503 instead of a hang.
    connectionTimeoutMillis: poolWaitMs,
    statement_timeout: statementTimeoutMs,
    // Notices a peer that vanished without closing the connection (network partition).
    keepAlive: true,
  });
  // An idle connection that breaks (server restarted) is dropped by the pool; without a listener
  // the pool's 'error' event would crash the process. Operations see failures as 503.
  pool.on('error', () => undefined);
  return { pool, owned: true };
}

function checkPositive(name: string, value: number): number {
  // Node's timers take at most 2^31 - 1 ms; a longer delay would fire after 1 ms.
  if (!Number.isFinite(value) || value <= 0 || value > MAX_TIMER_MS) {
    throw new ConfigError(`postgresStore: ${name} must be a positive number of milliseconds, at most ${MAX_TIMER_MS}.`);
  }
  return value;
}

function checkTtl(ttlMs: number): number {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new RangeError('ttlMs must be a positive number of milliseconds.');
  // Rounding up never shortens a TTL.
  return Math.ceil(ttlMs);
}
