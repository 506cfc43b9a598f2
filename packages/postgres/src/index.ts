export { postgresStore, type PostgresStore, type PostgresStoreOptions } from './postgres-store.js';
export { migrate, type MigrateOptions, type MigrateResult } from './migrate.js';
export { LATEST_SCHEMA_VERSION } from './migrations.js';
export { SchemaVersionError } from './schema-version-error.js';
