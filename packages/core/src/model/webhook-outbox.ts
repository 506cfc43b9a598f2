/** One queued status webhook as the outbox keeps it (the HMAC key is not in it: each process signs with its own configuration). */
export interface OutboxDelivery {
  instanceId: string;
  /** The `webhook-id`; unique within its instance, the same on every attempt by any process. */
  id: string;
  authorizationId: string;
  /** Orders the deliveries of one authorization: the record version of the change. */
  sequence: number;
  /** The destination (an instance's `webhooks.url` or a create request's `webhookUrl`). */
  url: string;
  eventType: string;
  /** The exact JSON text sent and signed. */
  body: string;
  /** Attempts started so far, by any process (as last recorded). */
  attempts: number;
}

/** Who holds a delivery and until when (epoch ms of the holder's clock). */
export interface OutboxLease {
  /** A random id of the holding process (one per authorizer). */
  holder: string;
  until: number;
}

/** Names a delivery: its instance and its `webhook-id`. */
export type OutboxRef = Pick<OutboxDelivery, 'instanceId' | 'id'>;

/**
 * The webhook outbox: status webhooks kept in the store until delivered, so that the deliveries a
 * process queued are taken over by another process when it dies. Every delivery is leased to the
 * process delivering it; the holder renews its leases while it lives, and a delivery whose lease
 * ran out is taken over by whichever process asks first. Delivery is therefore at least once.
 *
 * Each method is one atomic step of the store (a script, a statement, a transaction). All times
 * are epoch milliseconds passed in by the caller (the store compares them, never its own clock).
 * The memory, Redis and PostgreSQL stores implement it; a store without it cannot be given to an
 * authorizer that has webhooks (refused at construction).
 */
export interface WebhookOutbox {
  /**
   * Add `delivery` (its `attempts` as given) leased by `lease`. Returns 'duplicate' when the
   * instance already holds a delivery with this id (nothing changes), 'full' when the instance
   * already holds `maxPerInstance` deliveries (nothing written), else 'queued'.
   */
  addWebhook(delivery: OutboxDelivery, lease: OutboxLease, maxPerInstance: number): Promise<'queued' | 'duplicate' | 'full'>;
  /**
   * Move the leases `lease.holder` holds on `refs` to `lease.until` (0 hands them back: any process
   * may take them over at once). Refs it does not hold (taken over, removed) are left alone.
   * Returns how many it renewed.
   */
  renewWebhooks(refs: readonly OutboxRef[], lease: OutboxLease): Promise<number>;
  /**
   * Lease to `lease` up to `limit` deliveries whose lease ended at or before `now`, the longest
   * expired first. Of any number of racing callers, each delivery goes to exactly one.
   * A store that keeps deliveries in an encoded form decodes each on its own: one it cannot read
   * (a newer format, a corrupt value) is set aside (not returned, not leased again) and reported
   * once through `onUnreadable`, and the others are still returned.
   */
  takeOverWebhooks(now: number, lease: OutboxLease, limit: number, onUnreadable?: (error: unknown) => void): Promise<OutboxDelivery[]>;
  /** Record the attempts of a delivery `holder` holds; false (nothing written) when it does not hold it. */
  recordWebhookAttempts(ref: OutboxRef, holder: string, attempts: number): Promise<boolean>;
  /** Remove a delivery `holder` holds (delivered, given up or dropped); false (nothing removed) when it does not hold it. */
  removeWebhook(ref: OutboxRef, holder: string): Promise<boolean>;
}

const OUTBOX_METHODS = ['addWebhook', 'renewWebhooks', 'takeOverWebhooks', 'recordWebhookAttempts', 'removeWebhook'] as const;

/**
 * Which outbox methods `store` has: 'all' (it is an outbox), 'none', or the names missing when it
 * has some (a half-written outbox, refused loudly rather than used).
 */
export function outboxMethods(store: object): 'all' | 'none' | string[] {
  const missing = OUTBOX_METHODS.filter((name) => typeof (store as Record<string, unknown>)[name] !== 'function');
  if (missing.length === 0) return 'all';
  return missing.length === OUTBOX_METHODS.length ? 'none' : missing;
}

export const hasWebhookOutbox = <S extends object>(store: S): store is S & WebhookOutbox => outboxMethods(store) === 'all';
