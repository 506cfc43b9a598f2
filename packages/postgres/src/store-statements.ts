import { createHash } from 'node:crypto';
import type { SchemaNames } from './schema-names.js';

export interface Statement {
  /**
   * Prepared-statement name, unique per schema (node-postgres keys them by name per connection,
   * so two stores on different schemas may share a pool). The schema enters as a short hash: the
   * server cuts names at 63 bytes, which a long schema name would reach.
   */
  name: string;
  text: string;
}

/** `$n` milliseconds from now on the database clock. */
const fromNow = (param: string) => `statement_timestamp() + ${param}::double precision * interval '1 millisecond'`;
const LIVE = 'kept_until > statement_timestamp()';

/** Every statement the store sends; each transition is exactly one of them. */
export function storeStatements(n: SchemaNames) {
  const tag = createHash('sha256').update(n.schema).digest('hex').slice(0, 12);
  const statement = (name: string, text: string): Statement => ({ name: `vpa_${tag}_${name}`, text: text.replace(/\s+/g, ' ').trim() });
  return {
    // Replaces an existing row only when its retention has passed (it is invisible already).
    create: statement(
      'create',
      `INSERT INTO ${n.authorizations} AS a (instance_id, id, version, status, due_at, kept_until, record)
       VALUES ($1, $2, $3, $4, $5::bigint, ${fromNow('$6')}, $7::json)
       ON CONFLICT (instance_id, id) DO UPDATE SET version = excluded.version, status = excluded.status,
         due_at = excluded.due_at, kept_until = excluded.kept_until, record = excluded.record
       WHERE a.kept_until <= statement_timestamp()`,
    ),
    get: statement('get', `SELECT record FROM ${n.authorizations} WHERE instance_id = $1 AND id = $2 AND ${LIVE}`),
    getInAny: statement('get_in_any', `SELECT instance_id, record FROM ${n.authorizations} WHERE instance_id = ANY($1::text[]) AND id = $2 AND ${LIVE}`),
    // Under READ COMMITTED a concurrent writer waits for the row lock, then re-checks `version`
    // on the row the winner wrote: of any number of writers from one version, one updates.
    compareAndSet: statement(
      'compare_and_set',
      `UPDATE ${n.authorizations} SET version = $4, status = $5, due_at = $6::bigint, record = $8::json,
         kept_until = CASE WHEN $7::double precision IS NULL THEN kept_until ELSE ${fromNow('$7')} END
       WHERE instance_id = $1 AND id = $2 AND version = $3 AND ${LIVE}`,
    ),
    listDueForExpiry: statement(
      'list_due',
      `SELECT instance_id, id FROM ${n.authorizations} WHERE due_at <= $1::bigint AND ${LIVE} ORDER BY due_at LIMIT $2`,
    ),
    put: statement(
      'put',
      `INSERT INTO ${n.responseCodes} (key, entry, kept_until) VALUES ($1, $2::json, ${fromNow('$3')})
       ON CONFLICT (key) DO UPDATE SET entry = excluded.entry, kept_until = excluded.kept_until`,
    ),
    peek: statement('peek', `SELECT entry FROM ${n.responseCodes} WHERE key = $1 AND ${LIVE}`),
    // One deleter gets the row; an entry past its retention is deleted too but not handed out.
    consume: statement('consume', `DELETE FROM ${n.responseCodes} WHERE key = $1 RETURNING entry, ${LIVE} AS live`),
    // Batched cleanup: SKIP LOCKED lets several processes share the work without waiting on each other.
    deleteExpiredAuthorizations: statement(
      'delete_expired_authorizations',
      `DELETE FROM ${n.authorizations} WHERE (instance_id, id) IN (
         SELECT instance_id, id FROM ${n.authorizations} WHERE kept_until <= statement_timestamp()
         ORDER BY kept_until LIMIT $1 FOR UPDATE SKIP LOCKED)
       AND kept_until <= statement_timestamp()`,
    ),
    deleteExpiredCodes: statement(
      'delete_expired_codes',
      `DELETE FROM ${n.responseCodes} WHERE key IN (
         SELECT key FROM ${n.responseCodes} WHERE kept_until <= statement_timestamp()
         ORDER BY kept_until LIMIT $1 FOR UPDATE SKIP LOCKED)
       AND kept_until <= statement_timestamp()`,
    ),
    // The webhook outbox: each method one statement (the add one function call, see migration 2).
    addWebhook: statement('add_webhook', `SELECT ${n.addWebhook}($1, $2, $3, $4::bigint, $5, $6, $7, $8::integer, $9, $10::bigint, $11::integer) AS outcome`),
    renewWebhooks: statement(
      'renew_webhooks',
      `UPDATE ${n.webhookOutbox} SET lease_until = $2::bigint
       WHERE holder = $1 AND (instance_id, id) IN (SELECT * FROM unnest($3::text[], $4::text[]))`,
    ),
    // SKIP LOCKED: racing takers divide the expired leases; a row another taker has just leased
    // fails the re-checked lease_until condition and is left out.
    takeOverWebhooks: statement(
      'take_over_webhooks',
      `WITH due AS (
         SELECT instance_id, id, lease_until FROM ${n.webhookOutbox} WHERE lease_until <= $1::bigint
         ORDER BY lease_until LIMIT $4 FOR UPDATE SKIP LOCKED),
       taken AS (
         UPDATE ${n.webhookOutbox} o SET holder = $2, lease_until = $3::bigint FROM due
         WHERE o.instance_id = due.instance_id AND o.id = due.id
         RETURNING o.instance_id, o.id, o.authorization_id, o.sequence, o.url, o.event_type, o.body, o.attempts, due.lease_until AS expired_at)
       SELECT instance_id, id, authorization_id, sequence, url, event_type, body, attempts FROM taken ORDER BY expired_at`,
    ),
    recordWebhookAttempts: statement(
      'record_webhook_attempts',
      `UPDATE ${n.webhookOutbox} SET attempts = $4::integer WHERE instance_id = $1 AND id = $2 AND holder = $3`,
    ),
    removeWebhook: statement('remove_webhook', `DELETE FROM ${n.webhookOutbox} WHERE instance_id = $1 AND id = $2 AND holder = $3`),
  } satisfies Record<string, Statement>;
}

export type StoreStatements = ReturnType<typeof storeStatements>;
