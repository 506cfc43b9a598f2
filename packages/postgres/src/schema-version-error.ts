import { ConfigError } from '@vp-authorizer/core';
import { LATEST_SCHEMA_VERSION } from './migrations.js';

/**
 * The database schema does not match this package: not migrated yet, migrated by an older version
 * (run migrate), or by a newer one (upgrade every process). A misconfiguration: not retryable.
 */
export class SchemaVersionError extends ConfigError {
  /** The version found in the database (0: no tables). */
  readonly foundVersion: number;

  constructor(message: string, foundVersion: number) {
    super(message);
    this.foundVersion = foundVersion;
  }

  static missing(schema: string, found: number): SchemaVersionError {
    return new SchemaVersionError(
      `postgresStore: schema "${schema}" is at version ${found}, this @vp-authorizer/postgres needs ${LATEST_SCHEMA_VERSION}. ` +
        `Apply the migrations first: \`vp-authorizer-postgres migrate --url <url>${schema === 'public' ? '' : ` --schema ${schema}`}\` or \`await migrate(url)\`.`,
      found,
    );
  }

  static newer(schema: string, found: number): SchemaVersionError {
    return new SchemaVersionError(
      `Schema "${schema}" is at version ${found}, newer than this @vp-authorizer/postgres knows (${LATEST_SCHEMA_VERSION}). ` +
        'Upgrade @vp-authorizer/postgres in every process that shares this database.',
      found,
    );
  }
}
