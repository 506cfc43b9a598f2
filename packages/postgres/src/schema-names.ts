import { ConfigError } from '@vp-authorizer/core';

/** Unquoted lower-case identifiers only: they need no quoting rules and cannot smuggle SQL. */
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** Fully qualified names of the package's tables in one schema. */
export interface SchemaNames {
  schema: string;
  authorizations: string;
  responseCodes: string;
  schemaVersion: string;
  webhookOutbox: string;
  /** The function that adds a webhook to the outbox under the per-instance bound (migration 2). */
  addWebhook: string;
}

export const DEFAULT_SCHEMA = 'public';

export function schemaNames(schema: string = DEFAULT_SCHEMA, caller = 'postgresStore'): SchemaNames {
  if (!IDENTIFIER.test(schema)) {
    throw new ConfigError(`${caller}: schema must be a lower-case SQL identifier (letters, digits, _; at most 63), got ${JSON.stringify(schema)}.`);
  }
  return {
    schema,
    authorizations: `${schema}.vpa_authorizations`,
    responseCodes: `${schema}.vpa_response_codes`,
    schemaVersion: `${schema}.vpa_schema_version`,
    webhookOutbox: `${schema}.vpa_webhook_outbox`,
    addWebhook: `${schema}.vpa_add_webhook`,
  };
}
