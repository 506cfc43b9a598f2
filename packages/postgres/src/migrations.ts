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
  {
    version: 2,
    description: 'webhook outbox',
    statements: (n) => [
      // One row per queued status webhook until it is delivered or given up; times are epoch ms of
      // the core (the lease holder's clock), as the store's leases on records are.
      `CREATE TABLE ${n.webhookOutbox} (
        instance_id text NOT NULL,
        id text NOT NULL,
        authorization_id text NOT NULL,
        sequence bigint NOT NULL,
        url text NOT NULL,
        event_type text NOT NULL,
        body text NOT NULL,
        attempts integer NOT NULL,
        holder text NOT NULL,
        lease_until bigint NOT NULL,
        PRIMARY KEY (instance_id, id)
      )`,
      // Takeover reads the leases that ran out, longest expired first.
      `CREATE INDEX vpa_webhook_outbox_lease_until ON ${n.webhookOutbox} (lease_until)`,
      // Adding under the per-instance bound in one round trip: the advisory lock serialises the
      // adders of one instance, so the count is exact (each statement of a function sees what the
      // previous lock holder committed).
      `CREATE FUNCTION ${n.addWebhook}(p_instance_id text, p_id text, p_authorization_id text, p_sequence bigint, p_url text,
          p_event_type text, p_body text, p_attempts integer, p_holder text, p_lease_until bigint, p_max integer)
        RETURNS text LANGUAGE plpgsql AS $fn$
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtext('vp-authorizer-postgres:${n.schema}:webhook-outbox'), hashtext(p_instance_id));
        IF EXISTS (SELECT 1 FROM ${n.webhookOutbox} WHERE instance_id = p_instance_id AND id = p_id) THEN
          RETURN 'duplicate';
        END IF;
        IF (SELECT count(*) FROM ${n.webhookOutbox} WHERE instance_id = p_instance_id) >= p_max THEN
          RETURN 'full';
        END IF;
        INSERT INTO ${n.webhookOutbox} (instance_id, id, authorization_id, sequence, url, event_type, body, attempts, holder, lease_until)
          VALUES (p_instance_id, p_id, p_authorization_id, p_sequence, p_url, p_event_type, p_body, p_attempts, p_holder, p_lease_until);
        RETURN 'queued';
      END
      $fn$`,
    ],
  },
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
