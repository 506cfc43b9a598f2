import type { AuthorizationRecord } from './authorization-record.js';

export interface ExpiryCandidate {
  instanceId: string;
  id: string;
}

/**
 * The records half of a store: persistence of authorization records. Implementations throw
 * StoreUnavailableError when their engine cannot be reached. All durations are milliseconds; all
 * timestamps epoch milliseconds.
 */
export interface RecordStore {
  /**
   * Insert a new record, kept for `ttlMs` (its retention, which outlives `expiresAt` so that an
   * RP can still read the final status). Rejects if a record with the same instance and id exists;
   * a store that bounds what an instance holds rejects with StoreQuotaExceededError (nothing written).
   */
  create(record: AuthorizationRecord, ttlMs: number): Promise<void>;
  /**
   * The record, or null when unknown, dropped after its TTL, or owned by another instance. The
   * caller treats it as read-only (changes go through `compareAndSet` with a new object), so a
   * store may hand every reader the same frozen object, as the memory store does, or a fresh one.
   */
  get(instanceId: string, id: string): Promise<AuthorizationRecord | null>;
  /**
   * The record with this id in the first of `instanceIds` that holds one (as `get` would return
   * it), or null. The wallet's endpoints carry no API key, so the core looks a record up by id
   * alone with this one call. Needs no atomicity across instances: ids are random and a record
   * never moves between instances. Optional: without it the core calls `get` once per instance.
   */
  getInAny?(instanceIds: readonly string[], id: string): Promise<AuthorizationRecord | null>;
  /**
   * Atomic compare-and-set: replace the stored record with `next` only if the stored version is
   * `expectedVersion` (callers set `next.version = expectedVersion + 1`). Keeps the record's TTL,
   * unless `ttlMs` is given: then, in the same atomic step, the record is kept `ttlMs` from now
   * (the core gives it when a wallet first fetches the request object: a record is created with
   * a TTL that ends soon after its expiry, and gets its retention only once a wallet takes it up).
   * Returns false on a version conflict or a missing record; never partially writes.
   */
  compareAndSet(next: AuthorizationRecord, expectedVersion: number, ttlMs?: number): Promise<boolean>;
  /**
   * Up to `limit` records whose due time (`sweepDueAt`) is ≤ `now`, earliest first where the index
   * allows: for a record that is not terminal, `claimExpiresAt` when set (a response is being
   * processed), else `expiresAt`; for a terminal record, `eraseAt` when set (its disclosed data is
   * due for erasure), else it is never listed. Used by the sweep; must not scan the whole keyspace
   * (index by due time instead, and re-index on every write: `sweepDueAt` of the new record).
   */
  listDueForExpiry(now: number, limit: number): Promise<ExpiryCandidate[]>;
  /**
   * Resolves once the store's engine has answered a round trip; rejects (StoreUnavailableError)
   * when it cannot be reached. Used by the readiness probe (`GET /health/ready`); must not write.
   * Optional: without it the probe reads a record that cannot exist (`get` of a reserved id),
   * which reaches the engine just the same.
   */
  ping?(): Promise<void>;
}

/** What a response code points to. */
export interface ResponseCodeEntry {
  instanceId: string;
  authorizationId: string;
}

/**
 * The codes half of a store: one-time response codes. `key` is derived from the code by the core
 * (a hash scoped by instance), so stores never see the code itself.
 */
export interface CodeStore {
  /** Store `value` under `key` for `ttlMs` milliseconds. */
  put(key: string, value: ResponseCodeEntry, ttlMs: number): Promise<void>;
  /**
   * Read without deleting; null when unknown, consumed or expired. Resolving reads with `peek`
   * and deletes only with `consume` as its last store call, so a store failure in between leaves
   * the code resolvable on retry. Never decides a winner: only `consume` does.
   */
  peek(key: string): Promise<ResponseCodeEntry | null>;
  /**
   * Atomically read and delete. Exactly one of any number of concurrent callers (across
   * processes, for shared stores) gets the entry; the others and later callers get null.
   * Expired entries return null.
   */
  consume(key: string): Promise<ResponseCodeEntry | null>;
}

/**
 * What `createAuthorizer({ store })` takes and what a custom store implements: both halves, records
 * and response codes (memoryStore, redisStore and postgresStore are each one).
 */
export interface AuthorizerStore extends RecordStore, CodeStore {}
