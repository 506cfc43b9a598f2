import { memoryStore, type AuthorizerStore } from '@vp-authorizer/core';
import { EnvConfigError, type MemoryStoreQuotaSetting } from './config-from-env.js';

/** Where the store's start-up lines go (the examples print them; the server logs them as JSON). */
export type StoreLog = (message: string, fields: Record<string, unknown>) => void;

export interface StoreSettings {
  redisUrl?: string;
  postgresUrl?: string;
  memoryStoreQuota?: MemoryStoreQuotaSetting;
}

export interface StoreFromConfigOptions {
  /**
   * Apply the Postgres store's migrations before using it. Off: the schema is checked instead and
   * an unmigrated database refuses the start, naming the command that migrates it.
   */
  migrate: boolean;
  /** How to refuse an unmigrated schema: the switch that would migrate it (`--migrate`, `AUTHZ_POSTGRES_MIGRATE=1`). */
  migrateHint?: string;
  log?: StoreLog;
}

/** A store and how to release it once the authorizer closed; `store` undefined: the authorizer's own memory store. */
export interface ConfiguredStore {
  store: AuthorizerStore | undefined;
  kind: 'memory' | 'redis' | 'postgres';
  close(): Promise<void>;
}

const printLine: StoreLog = (message) => console.log(message);

/**
 * The store the settings ask for: `@vp-authorizer/postgres` on POSTGRES_URL; `@vp-authorizer/redis`
 * on REDIS_URL; a memory store with the quota of AUTHZ_MEMORY_STORE_MAX_*; else undefined (the
 * authorizer's own memory store, default quota). `close()` quits the Redis client, ends the
 * Postgres pool or stops the memory store's sweep, after the authorizer closed.
 */
export async function storeFromConfig(config: StoreSettings, options: StoreFromConfigOptions = { migrate: true }): Promise<ConfiguredStore> {
  if (!config.redisUrl && !config.postgresUrl && config.memoryStoreQuota) {
    const store = memoryStore(config.memoryStoreQuota);
    return { store, kind: 'memory', close: async () => store.close() };
  }
  if (config.postgresUrl) return postgresFromConfig(config.postgresUrl, options);
  if (!config.redisUrl) return { store: undefined, kind: 'memory', close: async () => {} };
  const { redisStore } = await import('@vp-authorizer/redis');
  let store: ReturnType<typeof redisStore>;
  try {
    store = redisStore({ url: config.redisUrl });
  } catch {
    // The URL may carry a password: neither it nor a message that could quote it is shown.
    throw new EnvConfigError([{ variable: 'REDIS_URL', message: 'the Redis store cannot be created with this URL' }]);
  }
  return { store, kind: 'redis', close: () => store.close() };
}

/**
 * `@vp-authorizer/postgres` on POSTGRES_URL. With `migrate`, the migrations are applied first,
 * explicitly and logged (the library never does so on its own); without, a deployment runs
 * `vp-authorizer-postgres migrate` in its deploy step and this only checks the schema.
 */
async function postgresFromConfig(url: string, { migrate: apply, migrateHint, log = printLine }: StoreFromConfigOptions): Promise<ConfiguredStore> {
  const { migrate, postgresStore, SchemaVersionError } = await import('@vp-authorizer/postgres');
  let store: ReturnType<typeof postgresStore>;
  try {
    store = postgresStore({ url });
  } catch {
    // The URL may carry a password: neither it nor a message that could quote it is shown.
    throw new EnvConfigError([{ variable: 'POSTGRES_URL', message: 'the Postgres store cannot be created with this URL' }]);
  }
  const closed = { store, kind: 'postgres' as const, close: () => store.close() };
  if (!apply) {
    try {
      // The first operation checks the schema version (a read of a record that cannot exist).
      await store.get('vp-authorizer:schema-check', 'probe');
    } catch (error) {
      if (error instanceof SchemaVersionError) {
        await store.close();
        throw new EnvConfigError([{ variable: 'POSTGRES_URL', message: `${error.message}${migrateHint ? ` Or start with ${migrateHint} to apply them now.` : ''}` }]);
      }
      // Unreachable for now: the start goes on and readiness says so until the database answers.
      log('[store] PostgreSQL did not answer the schema check; readiness reports it until it does', { event: 'store.unavailable', store: 'postgres', error: error instanceof Error ? error.message : String(error) });
    }
    return closed;
  }
  let result: Awaited<ReturnType<typeof migrate>>;
  try {
    result = await migrate(url);
  } catch (error) {
    await store.close();
    // node-postgres' messages name the failure (refused, authentication failed), never the password.
    throw new EnvConfigError([{ variable: 'POSTGRES_URL', message: `applying the store's migrations failed: ${error instanceof Error ? error.message : String(error)}` }]);
  }
  log(`[store] PostgreSQL schema ${result.schema}: ${result.applied.length > 0 ? `applied migration ${result.applied.join(', ')}` : 'up to date'} (version ${result.to})`, {
    event: 'store.migrated',
    schema: result.schema,
    applied: result.applied,
    version: result.to,
  });
  return closed;
}
