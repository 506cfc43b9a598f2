import type { SchemaNames } from './schema-names.js';

export interface Migration {
  version: number;
  description: string;
  /** Statements run in order inside the migration's transaction. */
  statements(names: SchemaNames): string[];
}

/**
 * Every schema change, in order; never edit a shipped one, append a new version. Times the store
 * itself decides (`kept_until`) come from the database clock, so that every process agrees;
 * `due_at` is the core's epoch milliseconds (its clock decides expiry).
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'authorizations and response codes',
    statements: (n) => [
      `CREATE TABLE ${n.authorizations} (
        instance_id text NOT NULL,
        id text NOT NULL,
        version integer NOT NULL,
        status text NOT NULL,
        due_at bigint,
        kept_until timestamptz NOT NULL,
        record json NOT NULL,
        PRIMARY KEY (instance_id, id)
      )`,
      // The expiry sweep's index: only records that can still expire are in it.
      `CREATE INDEX vpa_authorizations_due_at ON ${n.authorizations} (due_at) WHERE due_at IS NOT NULL`,
      `CREATE INDEX vpa_authorizations_kept_until ON ${n.authorizations} (kept_until)`,
      `CREATE TABLE ${n.responseCodes} (
        key text PRIMARY KEY,
        entry json NOT NULL,
        kept_until timestamptz NOT NULL
      )`,
      `CREATE INDEX vpa_response_codes_kept_until ON ${n.responseCodes} (kept_until)`,
    ],
  },
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
