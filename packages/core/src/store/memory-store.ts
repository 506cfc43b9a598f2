import { expiryDueAt, isTerminalStatus, type AuthorizationRecord } from '../model/authorization-record.js';
import { frozenJsonCopy, frozenJsonCopyOver, jsonCopy } from './json-copy.js';
import type { AuthorizationStore, CodeStore, ExpiryCandidate, ResponseCodeEntry } from '../model/authorization-store.js';

export interface MemoryStoreOptions {
  /** Source of "now" in epoch milliseconds; tests inject one to expire entries without waiting. */
  clock?: { now(): number };
  /** How often expired entries are dropped, in milliseconds. Default 60 000; 0 disables the timer. */
  sweepIntervalMs?: number;
}

/**
 * In-process store for one server process (tests, demos, single-instance deployments). State is
 * lost on restart and not shared between processes: use `@vp-authorizer/redis` for that.
 */
export interface MemoryStore extends AuthorizationStore, CodeStore {
  /** Drops records and codes whose TTL has passed; returns how many were dropped. */
  sweep(): number;
  /** Stops the sweep timer. The store stays usable (expiry is still checked on every read). */
  close(): void;
}

/**
 * An entry held as a private deep copy of its JSON value (`jsonCopy`, the value
 * `JSON.parse(JSON.stringify(…))` gives, as the Redis store hands back), so a caller never
 * shares a mutable object with the store. Records are copied once per write and frozen, then
 * handed to every reader as they are (readers treat records as read-only, see `get`); a status
 * read then costs no copy. Response-code entries are small and copied out on every read.
 */
interface Timed<T> {
  value: T;
  /** Epoch ms at which the entry stops existing (its TTL, not the authorization's expiresAt). */
  until: number;
}

const DEFAULT_SWEEP_INTERVAL_MS = 60_000;

export function memoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const clock = options.clock ?? Date;
  const sweepIntervalMs = options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
  if (!Number.isFinite(sweepIntervalMs) || sweepIntervalMs < 0) {
    throw new RangeError('memoryStore: sweepIntervalMs must be a finite number ≥ 0.');
  }

  const records = new Map<string, Timed<AuthorizationRecord>>();
  const codes = new Map<string, Timed<ResponseCodeEntry>>();
  // Expiry index: only non-terminal records, so listDueForExpiry never walks finished ones. Keyed
  // by the due time (a claimed record is due at its claim deadline, not at expiresAt).
  const open = new Map<string, ExpiryCandidate & { dueAt: number }>();

  const isLive = (entry: Timed<unknown>, now: number): boolean => now < entry.until;

  const liveRecord = (key: string, now: number): Timed<AuthorizationRecord> | undefined => {
    const entry = records.get(key);
    if (entry === undefined) return undefined;
    if (isLive(entry, now)) return entry;
    records.delete(key);
    open.delete(key);
    return undefined;
  };

  const index = (key: string, record: AuthorizationRecord): void => {
    if (isTerminalStatus(record.status)) open.delete(key);
    else open.set(key, { instanceId: record.instanceId, id: record.id, dueAt: expiryDueAt(record) });
  };

  const sweep = (): number => {
    const now = clock.now();
    let dropped = 0;
    for (const [key, entry] of records) {
      if (isLive(entry, now)) continue;
      records.delete(key);
      open.delete(key);
      dropped++;
    }
    for (const [key, entry] of codes) {
      if (isLive(entry, now)) continue;
      codes.delete(key);
      dropped++;
    }
    return dropped;
  };

  let timer: ReturnType<typeof setInterval> | undefined;
  if (sweepIntervalMs > 0) {
    timer = setInterval(sweep, sweepIntervalMs);
    // Never keep a process alive just to tidy memory.
    timer.unref();
  }

  return {
    async create(record, ttlMs) {
      const now = clock.now();
      const key = recordKey(record.instanceId, record.id);
      if (liveRecord(key, now) !== undefined) {
        throw new Error('An authorization with this id already exists for this instance.');
      }
      records.set(key, { value: frozenJsonCopy(record), until: now + checkTtl(ttlMs) });
      index(key, record);
    },

    async get(instanceId, id) {
      const entry = liveRecord(recordKey(instanceId, id), clock.now());
      return entry === undefined ? null : entry.value;
    },

    async compareAndSet(next, expectedVersion) {
      checkNextVersion(next, expectedVersion);
      const key = recordKey(next.instanceId, next.id);
      const entry = liveRecord(key, clock.now());
      if (entry === undefined || entry.value.version !== expectedVersion) return false;
      // Same `until`: a compare-and-set keeps the record's TTL.
      records.set(key, { value: frozenJsonCopyOver(next, entry.value), until: entry.until });
      index(key, next);
      return true;
    },

    async listDueForExpiry(now, limit) {
      const current = clock.now();
      const due: (ExpiryCandidate & { dueAt: number })[] = [];
      for (const [key, candidate] of open) {
        if (candidate.dueAt > now) continue;
        if (liveRecord(key, current) === undefined) continue;
        due.push(candidate);
      }
      due.sort((a, b) => a.dueAt - b.dueAt);
      return due.slice(0, Math.max(0, limit)).map(({ instanceId, id }) => ({ instanceId, id }));
    },

    async put(key, value, ttlMs) {
      codes.set(key, { value: jsonCopy(value), until: clock.now() + checkTtl(ttlMs) });
    },

    async peek(key) {
      const entry = codes.get(key);
      return entry !== undefined && isLive(entry, clock.now()) ? jsonCopy(entry.value) : null;
    },

    async consume(key) {
      const entry = codes.get(key);
      if (entry === undefined) return null;
      // Delete before anything else: single-threaded, so the first caller is the only winner.
      codes.delete(key);
      return isLive(entry, clock.now()) ? jsonCopy(entry.value) : null;
    },

    async ping() {
      // In process: reachable whenever this code runs.
    },

    sweep,

    close() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    },
  };
}

// The length prefix makes the pair recoverable from the key, whatever characters either holds.
const recordKey = (instanceId: string, id: string): string => `${instanceId.length}:${instanceId}${id}`;

function checkTtl(ttlMs: number): number {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new RangeError('ttlMs must be a positive number of milliseconds.');
  return ttlMs;
}

/** A caller that forgets to bump the version would let a second compare-and-set win too. */
function checkNextVersion(next: AuthorizationRecord, expectedVersion: number): void {
  if (next.version !== expectedVersion + 1) {
    throw new RangeError('compareAndSet: next.version must be expectedVersion + 1.');
  }
}
