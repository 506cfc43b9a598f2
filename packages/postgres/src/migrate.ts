import pg from 'pg';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from './migrations.js';
import { schemaNames } from './schema-names.js';
import { SchemaVersionError } from './schema-version-error.js';

export interface MigrateOptions {
  /** Schema holding the tables; created when missing. Default `public`. */
  schema?: string;
}

export interface MigrateResult {
  schema: string;
  /** Schema version found before (0: none). */
  from: number;
  /** Schema version now. */
  to: number;
  /** The versions this call applied, in order (empty when the schema was up to date). */
  applied: number[];
}

/**
 * Creates or upgrades the store's tables: every migration not yet recorded in
 * `<schema>.vpa_schema_version`, in one transaction (all or nothing), under an advisory lock, so
 * that processes starting together migrate once. Never runs by itself: call it (or the
 * `vp-authorizer-postgres migrate` command) before the store serves. Refuses a schema newer than
 * this package knows. `target` is a pool you own (left open) or a connection URL.
 */
export async function migrate(target: pg.Pool | string, options: MigrateOptions = {}): Promise<MigrateResult> {
  const names = schemaNames(options.schema, 'migrate');
  const own = typeof target === 'string' ? new pg.Client({ connectionString: target }) : undefined;
  const client: pg.Client | pg.PoolClient = own ?? (await (target as pg.Pool).connect());
  if (own !== undefined) await own.connect();
  let failed = false;
  try {
    await client.query('BEGIN');
    // Serialises concurrent migrations of the same schema; released at COMMIT or ROLLBACK.
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`vp-authorizer-postgres:${names.schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${names.schema}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${names.schemaVersion} (version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const found = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${names.schemaVersion}`);
    const from = found.rows[0]?.version ?? 0;
    if (from > LATEST_SCHEMA_VERSION) throw SchemaVersionError.newer(names.schema, from);
    const applied: number[] = [];
    for (const migration of MIGRATIONS) {
      if (migration.version <= from) continue;
      for (const statement of migration.statements(names)) await client.query(statement);
      await client.query(`INSERT INTO ${names.schemaVersion} (version, description) VALUES ($1, $2)`, [migration.version, migration.description]);
      applied.push(migration.version);
    }
    await client.query('COMMIT');
    return { schema: names.schema, from, to: Math.max(from, LATEST_SCHEMA_VERSION), applied };
  } catch (error) {
    failed = true;
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    // A PoolClient is a pg.Client too: tell them apart by who made it.
    if (own !== undefined) await own.end().catch(() => undefined);
    else (client as pg.PoolClient).release(failed);
  }
}
