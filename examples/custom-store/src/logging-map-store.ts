import {
  sweepDueAt,
  type AuthorizationRecord,
  type AuthorizerStore,
  type ExpiryCandidate,
  type ResponseCodeEntry,
} from '@vp-authorizer/core';

export interface LoggingMapStoreOptions {
  /** Receives one line per operation. Lines name operations and ids, never codes or record contents. */
  log?: (line: string) => void;
  /** Epoch milliseconds; the contract suite passes a test clock here. */
  now?: () => number;
}

interface Entry<T> {
  value: T;
  until: number;
}

/**
 * A deliberately small store written the way a user would: two Maps, a log line per call.
 * JavaScript runs one callback at a time, so each method below is atomic as long as it does not
 * `await` between reading and writing; a store on a remote engine needs the engine's atomic
 * operations instead (see @vp-authorizer/redis: GETDEL and a Lua compare-and-set).
 */
export function loggingMapStore(options: LoggingMapStoreOptions = {}): AuthorizerStore {
  const log = options.log ?? ((line: string) => console.log(line));
  const now = options.now ?? Date.now;
  const records = new Map<string, Entry<AuthorizationRecord>>();
  const codes = new Map<string, Entry<ResponseCodeEntry>>();
  const keyOf = (instanceId: string, id: string) => JSON.stringify([instanceId, id]);

  const live = (key: string): Entry<AuthorizationRecord> | undefined => {
    const entry = records.get(key);
    if (entry !== undefined && now() >= entry.until) {
      records.delete(key);
      return undefined;
    }
    return entry;
  };

  return {
    async create(record, ttlMs) {
      const key = keyOf(record.instanceId, record.id);
      if (live(key) !== undefined) {
        log(`store.create instance=${record.instanceId} id=${record.id} → duplicate`);
        throw new Error('An authorization with this id already exists.');
      }
      // Copies in and out: callers must not be able to change stored state by reference.
      records.set(key, { value: structuredClone(record), until: now() + ttlMs });
      log(`store.create instance=${record.instanceId} id=${record.id} ttlMs=${ttlMs}`);
    },

    async get(instanceId, id) {
      const entry = live(keyOf(instanceId, id));
      log(`store.get instance=${instanceId} id=${id} → ${entry === undefined ? 'miss' : 'hit'}`);
      return entry === undefined ? null : structuredClone(entry.value);
    },

    async compareAndSet(next, expectedVersion, ttlMs) {
      const entry = live(keyOf(next.instanceId, next.id));
      const ok = entry !== undefined && entry.value.version === expectedVersion;
      if (ok) {
        entry.value = structuredClone(next);
        // Keep `until` unless the core gives a new TTL (when a wallet first fetches the request).
        if (ttlMs !== undefined) entry.until = now() + ttlMs;
      }
      log(`store.compareAndSet instance=${next.instanceId} id=${next.id} v${expectedVersion}→v${next.version} status=${next.status}${ttlMs === undefined ? '' : ` ttlMs=${ttlMs}`} → ${ok ? 'ok' : 'conflict'}`);
      return ok;
    },

    async listDueForExpiry(at, limit) {
      // A Map scan is fine in memory; a store on a database should index records by their due time,
      // sweepDueAt(record): an open record's expiry (a claimed response's deadline, else expiresAt),
      // a finished one's eraseAt while its disclosed data awaits erasure; undefined: not indexed.
      const due: (ExpiryCandidate & { dueAt: number })[] = [];
      for (const [key, entry] of records) {
        const dueAt = sweepDueAt(entry.value);
        if (live(key) === undefined || dueAt === undefined || dueAt > at) continue;
        due.push({ instanceId: entry.value.instanceId, id: entry.value.id, dueAt });
      }
      due.sort((a, b) => a.dueAt - b.dueAt);
      log(`store.listDueForExpiry → ${Math.min(due.length, limit)}`);
      return due.slice(0, limit).map(({ instanceId, id }) => ({ instanceId, id }));
    },

    async put(key, value, ttlMs) {
      codes.set(key, { value: { ...value }, until: now() + ttlMs });
      // The key is derived from a response code: never log it.
      log(`store.put instance=${value.instanceId} ttlMs=${ttlMs}`);
    },

    async peek(key) {
      const entry = codes.get(key);
      const hit = entry !== undefined && now() < entry.until;
      log(`store.peek → ${hit ? 'hit' : 'miss'}`);
      return hit ? { ...entry.value } : null;
    },

    async consume(key) {
      const entry = codes.get(key);
      codes.delete(key);
      const hit = entry !== undefined && now() < entry.until;
      log(`store.consume → ${hit ? 'hit' : 'miss'}`);
      return hit ? entry.value : null;
    },
  };
}
