import { sweepDueAt, type AuthorizationRecord } from '../model/authorization-record.js';
import { frozenJsonCopy, frozenJsonCopyOver, jsonCopy } from './json-copy.js';
import { NODE_OVERHEAD_BYTES, SCALAR_OVERHEAD_BYTES, accountedBytes } from './json-size.js';
import { ConfigError } from '../errors/config-error.js';
import { StoreQuotaExceededError } from '../errors/store-quota-exceeded-error.js';
import type { AuthorizerStore, ExpiryCandidate, ResponseCodeEntry } from '../model/authorizer-store.js';

/**
 * What one instance may hold in a memory store. A `create` past either bound is refused with
 * StoreQuotaExceededError (HTTP 429 + Retry-After); compare-and-set is never refused, so a
 * started authorization always reaches its outcome (its results count from then on).
 */
export interface MemoryStoreQuota {
  /** Authorization records held at once, those past their TTL but not yet dropped included. Default 100 000. */
  maxRecordsPerInstance: number;
  /**
   * Accounted bytes of those records (≈ heap, see `accountedBytes`): each record's JSON length plus
   * 64 per object or array and 16 per scalar and per key, so many small nodes (`{}` is 2 characters
   * of JSON but about 60 bytes of heap) count what they hold in memory. A finished SD-JWT VC flow
   * is about 2 to 4 KB of JSON and some 5 to 8 KB accounted. Default 256 MiB.
   */
  maxBytesPerInstance: number;
}

export interface MemoryStoreOptions extends Partial<MemoryStoreQuota> {
  /** Source of "now" in epoch milliseconds; tests inject one to expire entries without waiting. */
  clock?: { now(): number };
  /** How often expired entries are dropped, in milliseconds. Default 60 000; 0 disables the timer. */
  sweepIntervalMs?: number;
}

/**
 * In-process store for one server process (tests, demos, single-instance deployments). State is
 * lost on restart and not shared between processes: use `@vp-authorizer/redis` for that.
 */
export interface MemoryStore extends AuthorizerStore {
  /** Drops records and codes whose TTL has passed; returns how many were dropped. */
  sweep(): number;
  /** Stops the sweep timer. The store stays usable (expiry is still checked on every read). */
  close(): void;
  /** The per-instance bounds in effect (defaults filled in). */
  readonly quota: Readonly<MemoryStoreQuota>;
  /** What an instance holds now, counted as the quota counts it (records not yet dropped included). */
  usage(instanceId: string): { records: number; bytes: number };
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

/** A record entry with what it counts against its instance's quota. */
interface StoredRecord extends Timed<AuthorizationRecord> {
  /** accountedBytes of the value. */
  bytes: number;
}

/** One instance's use of the store. */
interface Usage {
  records: number;
  bytes: number;
  /** The earliest `until` among its records, as the last sweep found it (what Retry-After says). */
  earliestUntil: number;
}

const DEFAULT_SWEEP_INTERVAL_MS = 60_000;
const DEFAULT_QUOTA: MemoryStoreQuota = { maxRecordsPerInstance: 100_000, maxBytesPerInstance: 256 * 1024 * 1024 };
/** A create refused for quota sweeps first (to count only what is still live), at most this often. */
const RECLAIM_INTERVAL_MS = 1_000;

export function memoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const clock = options.clock ?? Date;
  const sweepIntervalMs = options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
  if (!Number.isFinite(sweepIntervalMs) || sweepIntervalMs < 0) {
    throw new RangeError('memoryStore: sweepIntervalMs must be a finite number ≥ 0.');
  }

  const quota: MemoryStoreQuota = {
    maxRecordsPerInstance: checkQuota(options.maxRecordsPerInstance, DEFAULT_QUOTA.maxRecordsPerInstance, 'maxRecordsPerInstance'),
    maxBytesPerInstance: checkQuota(options.maxBytesPerInstance, DEFAULT_QUOTA.maxBytesPerInstance, 'maxBytesPerInstance'),
  };

  const records = new Map<string, StoredRecord>();
  const codes = new Map<string, Timed<ResponseCodeEntry>>();
  const usages = new Map<string, Usage>();
  let lastReclaim = -Infinity;
  // Due-time index (sweepDueAt): non-terminal records and terminal ones whose disclosed data is due
  // for erasure, so listDueForExpiry never walks the other finished ones. A claimed record is due at
  // its claim deadline, not at expiresAt.
  const open = new Map<string, ExpiryCandidate & { dueAt: number }>();

  const isLive = (entry: Timed<unknown>, now: number): boolean => now < entry.until;

  const liveRecord = (key: string, now: number): StoredRecord | undefined => {
    const entry = records.get(key);
    if (entry === undefined) return undefined;
    if (isLive(entry, now)) return entry;
    dropRecord(key, entry);
    return undefined;
  };

  function dropRecord(key: string, entry: StoredRecord): void {
    records.delete(key);
    open.delete(key);
    const usage = usages.get(entry.value.instanceId);
    if (usage === undefined) return;
    usage.records--;
    usage.bytes -= entry.bytes;
    if (usage.records === 0) usages.delete(entry.value.instanceId);
  }

  function usageOf(instanceId: string): Usage {
    let usage = usages.get(instanceId);
    if (usage === undefined) usages.set(instanceId, (usage = { records: 0, bytes: 0, earliestUntil: Infinity }));
    return usage;
  }

  const fits = (usage: Usage, bytes: number): boolean => usage.records < quota.maxRecordsPerInstance && usage.bytes + bytes <= quota.maxBytesPerInstance;

  /**
   * Room for a record of `bytes` in `instanceId`'s share, or StoreQuotaExceededError. Refusing
   * first drops what has expired (a sweep, at most once per RECLAIM_INTERVAL_MS, so a client
   * hammering a full instance costs one walk per interval), which also finds when the instance's
   * first record leaves: the Retry-After.
   */
  function reserve(instanceId: string, bytes: number, now: number): void {
    if (fits(usageOf(instanceId), bytes)) return;
    if (now - lastReclaim >= RECLAIM_INTERVAL_MS) sweep();
    const usage = usageOf(instanceId);
    if (fits(usage, bytes)) return;
    const waitMs = usage.earliestUntil > now && Number.isFinite(usage.earliestUntil) ? usage.earliestUntil - now : RECLAIM_INTERVAL_MS;
    const bound = usage.records >= quota.maxRecordsPerInstance ? `${quota.maxRecordsPerInstance} records` : `${quota.maxBytesPerInstance} bytes`;
    throw new StoreQuotaExceededError(`memoryStore: instance "${instanceId}" holds its maximum of ${bound} (maxRecordsPerInstance / maxBytesPerInstance).`, { retryAfterSeconds: waitMs / 1000 });
  }

  const index = (key: string, record: AuthorizationRecord): void => {
    const dueAt = sweepDueAt(record);
    if (dueAt === undefined) open.delete(key);
    else open.set(key, { instanceId: record.instanceId, id: record.id, dueAt });
  };

  const sweep = (): number => {
    const now = clock.now();
    lastReclaim = now;
    let dropped = 0;
    for (const usage of usages.values()) usage.earliestUntil = Infinity;
    for (const [key, entry] of records) {
      if (isLive(entry, now)) {
        const usage = usages.get(entry.value.instanceId);
        if (usage !== undefined && entry.until < usage.earliestUntil) usage.earliestUntil = entry.until;
        continue;
      }
      dropRecord(key, entry);
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
      const until = now + checkTtl(ttlMs);
      const value = frozenJsonCopy(record);
      const bytes = recordSize(value);
      reserve(record.instanceId, bytes, now);
      records.set(key, { value, until, bytes });
      const usage = usageOf(record.instanceId);
      usage.records++;
      usage.bytes += bytes;
      if (until < usage.earliestUntil) usage.earliestUntil = until;
      index(key, record);
    },

    async get(instanceId, id) {
      const entry = liveRecord(recordKey(instanceId, id), clock.now());
      return entry === undefined ? null : entry.value;
    },

    async getInAny(instanceIds, id) {
      const now = clock.now();
      for (const instanceId of instanceIds) {
        const entry = liveRecord(recordKey(instanceId, id), now);
        if (entry !== undefined) return entry.value;
      }
      return null;
    },

    async compareAndSet(next, expectedVersion, ttlMs) {
      checkNextVersion(next, expectedVersion);
      const now = clock.now();
      const until = ttlMs === undefined ? undefined : now + checkTtl(ttlMs);
      const key = recordKey(next.instanceId, next.id);
      const entry = liveRecord(key, now);
      if (entry === undefined || entry.value.version !== expectedVersion) return false;
      // Never refused for quota: the record already has its place, and its outcome must be stored.
      const value = frozenJsonCopyOver(next, entry.value);
      const bytes = resizedRecord(entry.value, entry.bytes, value);
      // Without ttlMs, the same `until`: a compare-and-set keeps the record's TTL.
      records.set(key, { value, until: until ?? entry.until, bytes });
      const usage = usages.get(next.instanceId);
      if (usage !== undefined) {
        usage.bytes += bytes - entry.bytes;
        if (until !== undefined && until < usage.earliestUntil) usage.earliestUntil = until;
      }
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

    quota: Object.freeze({ ...quota }),

    usage(instanceId) {
      const usage = usages.get(instanceId);
      return { records: usage?.records ?? 0, bytes: usage?.bytes ?? 0 };
    },

    close() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    },
  };
}

/**
 * accountedBytes of a stored record (to within one character): the object's own, one for the
 * braces and the comma they miss, then each member's cost.
 */
function recordSize(record: AuthorizationRecord): number {
  let size = NODE_OVERHEAD_BYTES + 1;
  for (const key in record) size += memberCost(key, record[key as keyof AuthorizationRecord]);
  return size;
}

/**
 * recordSize of `next`, a new version of `previous` (of `previousSize`): a compare-and-set keeps
 * most members as they are (frozenJsonCopyOver takes them over), so only the members that differ
 * are measured, usually a few scalars and the results.
 */
function resizedRecord(previous: AuthorizationRecord, previousSize: number, next: AuthorizationRecord): number {
  let size = previousSize;
  for (const key in next) {
    const before = previous[key as keyof AuthorizationRecord];
    const after = next[key as keyof AuthorizationRecord];
    if (before !== after) size += memberCost(key, after) - memberCost(key, before);
  }
  for (const key in previous) if (!(key in next)) size -= memberCost(key, previous[key as keyof AuthorizationRecord]);
  return size;
}

/** A member's quoted key (and its overhead), colon, value and comma; nothing when JSON leaves it out. */
const memberCost = (key: string, value: unknown): number => (value === undefined ? 0 : key.length + 4 + SCALAR_OVERHEAD_BYTES + accountedBytes(value));

// The length prefix makes the pair recoverable from the key, whatever characters either holds.
const recordKey = (instanceId: string, id: string): string => `${instanceId.length}:${instanceId}${id}`;

function checkQuota(value: number | undefined, fallback: number, name: keyof MemoryStoreQuota): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new ConfigError(`memoryStore: ${name} must be a whole number ≥ 1 (default ${fallback}); the memory store always bounds what one instance holds.`);
  }
  return value;
}

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
