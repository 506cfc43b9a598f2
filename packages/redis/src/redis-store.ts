import { Redis, type Cluster, type RedisOptions } from 'ioredis';
import {
  ConfigError,
  StoreUnavailableError,
  sweepDueAt,
  type AuthorizationRecord,
  type AuthorizerStore,
  type ExpiryCandidate,
  type ResponseCodeEntry,
} from '@vp-authorizer/core';
import { runCompareAndSet } from './compare-and-set-script.js';
import { runCreate } from './create-script.js';
import { operationDeadlines } from './operation-deadlines.js';
import { decodeCode, decodeRecord, encodeCode, encodeRecord } from './record-codec.js';
import { RecordFormatError } from './record-format-error.js';
import { expiryMember, parseExpiryMember, redisKeys } from './redis-keys.js';
import { toStoreError } from './to-store-error.js';

export interface RedisStoreOptions {
  /**
   * A client you own (standalone `Redis` or `Cluster`). The store never closes it. For fast
   * failure when Redis is down, give it `maxRetriesPerRequest: 1` (see the README).
   */
  client?: Redis | Cluster;
  /** `redis://[user:pass@]host:port[/db]` or `rediss://…`: the store creates (and owns) a client. */
  url?: string;
  /**
   * ioredis options for a client the store creates (host, port, password, tls…; with `url`, the
   * URL wins for what it sets). They override the store's fail-fast defaults, except
   * `lazyConnect`: the store connects a client it owns at once (without an offline queue, a lazy
   * client would never connect).
   */
  redisOptions?: RedisOptions;
  /** Prefix of every key. Default `vpa:`. Must not contain `{` or `}` (see redis-keys). */
  keyPrefix?: string;
  /**
   * Upper bound for one store operation in milliseconds, default 1000, at most 2^31 - 1. Past it the operation
   * rejects with StoreUnavailableError; the command may still reach Redis later.
   */
  commandTimeoutMs?: number;
  /**
   * On standalone Redis, create and compare-and-set update the expiry index inside their script
   * (one round trip per write). Default true; ignored under `Cluster`, which always uses a separate
   * command. Set false behind a proxy that shards plain Redis by a script's first key (twemproxy,
   * Envoy's Redis proxy): there the index would land on the record's shard, not its own.
   */
  expiryIndexInScript?: boolean;
}

export interface RedisStore extends AuthorizerStore {
  /** Quits the client if the store created it; a client passed in is left open. */
  close(): Promise<void>;
}

const DEFAULT_PREFIX = 'vpa:';
const DEFAULT_COMMAND_TIMEOUT_MS = 1_000;
const MAX_TIMER_MS = 2_147_483_647;
// listDueForExpiry prunes stale index entries and reads again at most this many times per call.
const MAX_EXPIRY_PAGES = 5;

/**
 * store (`AuthorizerStore`) on Redis ≥ 6.2 or Valkey (GETDEL, SET KEEPTTL).
 *
 * Atomicity: codes are consumed with GETDEL; compare-and-set is one Lua script on the record's
 * single key. TTLs live in Redis (PX), never in a process timer.
 *
 * The expiry index (`<prefix>expiry`) is a sorted set in its own slot, so under Redis Cluster it
 * cannot share a transaction with the record. It is kept as a hint: ZADD before a record is
 * created, ZADD (re-scored to the due time: a claim's deadline, else expiresAt) after a
 * compare-and-set that writes a non-terminal status, ZREM after one that writes a terminal
 * status. On standalone Redis the same index moves happen inside the create and compare-and-set
 * scripts (one round trip per write instead of two; same keys and values, so processes of either
 * kind share one Redis). listDueForExpiry re-reads every candidate and prunes entries whose record
 * is gone, terminal or not yet due; the core re-checks status and version before expiring
 * anything, so a stale hint can delay a sweep, never corrupt.
 */
export function redisStore(options: RedisStoreOptions): RedisStore {
  const prefix = options.keyPrefix ?? DEFAULT_PREFIX;
  if (/[{}]/.test(prefix)) {
    throw new ConfigError('redisStore: keyPrefix must not contain { or } (they would become the Redis Cluster hash tag).');
  }
  const timeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  // Node's timers take at most 2^31 - 1 ms; a longer delay would fire after 1 ms.
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0 || timeoutMs > MAX_TIMER_MS) {
    throw new ConfigError(`redisStore: commandTimeoutMs must be a positive number of milliseconds, at most ${MAX_TIMER_MS}.`);
  }
  const { client, owned, firstAttempt } = connect(options);
  const keys = redisKeys(prefix);
  // Standalone Redis: the record and the expiry index may share a script (one round trip per
  // write). Under Cluster they live in different slots, so the index is a separate command; so
  // too behind a plain client that turns out to reach a cluster (a one-node cluster, a proxy):
  // its first CROSSSLOT refusal (nothing written) switches this store to the separate command.
  let standalone = client.isCluster || options.expiryIndexInScript === false ? undefined : (client as Redis);
  const sharedScript = async <T>(write: (redis: Redis) => Promise<T>): Promise<T | undefined> => {
    if (standalone === undefined) return undefined;
    try {
      return await write(standalone);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('CROSSSLOT')) throw error;
      standalone = undefined;
      return undefined;
    }
  };

  let connected = false;
  void firstAttempt.then(() => (connected = true));

  const deadlines = operationDeadlines(timeoutMs, () => new StoreUnavailableError(`Redis did not answer within ${timeoutMs} ms.`));

  /**
   * Bounds an operation in time and maps connection failures to StoreUnavailableError. `map`
   * turns the reply into the result in the same step (no extra promise): this wraps every
   * command on the hot path.
   */
  function guarded<R, T = R>(operation: () => Promise<R>, map?: (reply: R) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const entry = deadlines.add(reject);
      const settled = connected ? invoke(operation) : firstAttempt.then(operation);
      settled.then(
        (reply) => {
          deadlines.settle(entry);
          if (map === undefined) resolve(reply as unknown as T);
          else {
            try {
              resolve(map(reply));
            } catch (error) {
              reject(toStoreError(error));
            }
          }
        },
        (error: unknown) => {
          deadlines.settle(entry);
          reject(toStoreError(error));
        },
      );
    });
  }

  /** Index maintenance after the record is already written: its failure must not fail the write. */
  const bestEffort = async (operation: Promise<unknown>): Promise<void> => {
    await operation.catch(() => undefined);
  };

  return {
    create: (record, ttlMs) =>
      guarded(async () => {
        const px = checkTtl(ttlMs);
        const key = keys.authorization(record.instanceId, record.id);
        const score = sweepDueAt(record);
        const member = expiryMember(record.instanceId, record.id);
        let written = await sharedScript((redis) => runCreate(redis, key, encodeRecord(record), px, score !== undefined ? { key: keys.expiry, score, member } : undefined));
        if (written === undefined) {
          // Index first: a record that exists is then always findable by the sweep. NX keeps the
          // original score if this create turns out to be a duplicate.
          if (score !== undefined) await client.zadd(keys.expiry, 'NX', score, member);
          written = (await client.set(key, encodeRecord(record), 'PX', px, 'NX')) !== null;
        }
        if (!written) throw new Error('An authorization with this id already exists for this instance.');
      }),

    get: (instanceId, id) => guarded(() => client.get(keys.authorization(instanceId, id)), decodeRecordReply),

    // One MGET (one round trip); under Cluster the keys sit in different slots, so one GET each, in parallel.
    getInAny: (instanceIds, id) =>
      guarded(async () => {
        if (instanceIds.length === 0) return null;
        const ids = instanceIds.map((instanceId) => keys.authorization(instanceId, id));
        const replies = client.isCluster ? await Promise.all(ids.map((key) => client.get(key))) : await client.mget(ids);
        return replies.find((raw) => raw !== null) ?? null;
      }, decodeRecordReply),

    compareAndSet: (next, expectedVersion, ttlMs) =>
      guarded(async () => {
        checkNextVersion(next, expectedVersion);
        const px = ttlMs === undefined ? undefined : checkTtl(ttlMs);
        const key = keys.authorization(next.instanceId, next.id);
        const member = expiryMember(next.instanceId, next.id);
        // A claim (or its release) moves the due time without touching expiresAt: re-score after
        // every write; drop the entry when the sweep has nothing left to do with the record (a
        // terminal one, unless its disclosed data is due for erasure).
        const score = sweepDueAt(next);
        // One round trip where the script may move the index entry itself.
        const shared = await sharedScript((redis) => runCompareAndSet(redis, key, expectedVersion, encodeRecord(next), next.expiresAt, px, { key: keys.expiry, member, score }));
        if (shared !== undefined) return shared !== 0;
        const outcome = await runCompareAndSet(client, key, expectedVersion, encodeRecord(next), next.expiresAt, px);
        if (outcome === 0) return false;
        if (score === undefined) await bestEffort(client.zrem(keys.expiry, member));
        else await bestEffort(client.zadd(keys.expiry, score, member));
        return true;
      }),

    listDueForExpiry: (now, limit) =>
      guarded(async () => {
        const due: ExpiryCandidate[] = [];
        const seen = new Set<string>();
        limit = Math.floor(limit);
        // Entries that stay in the score range (due, or unreadable by this version) are skipped by
        // offset on the next page; pruned and re-scored ones have left the range.
        let offset = 0;
        for (let page = 0; page < MAX_EXPIRY_PAGES && due.length < limit; page++) {
          const wanted = limit - due.length;
          const members = await client.zrangebyscore(keys.expiry, '-inf', now, 'LIMIT', offset, wanted);
          const checked = await Promise.all(members.map((member) => checkCandidate(member, now)));
          checked.forEach((result, i) => {
            if (result === 'left') return;
            offset++;
            if (result === 'kept' || seen.has(members[i]!)) return;
            seen.add(members[i]!);
            due.push(result);
          });
          if (members.length < wanted) break;
        }
        return due;
      }),

    put: (key, value, ttlMs) =>
      guarded(
        () => client.set(keys.code(key), encodeCode(value), 'PX', checkTtl(ttlMs)),
        ignoreReply,
      ),

    peek: (key) => guarded(() => client.get(keys.code(key)), decodeCodeReply),

    consume: (key) => guarded(() => client.getdel(keys.code(key)), decodeCodeReply),

    ping: () =>
      guarded(async () => {
        // One round trip (PING): it fails fast while the connection is down (no offline queue).
        await client.ping();
      }),

    async close() {
      if (!owned) return;
      if (client.status === 'ready') {
        await client.quit().catch(() => client.disconnect());
      } else {
        client.disconnect();
      }
    },
  };

  /**
   * Re-reads an index entry's record. Returns the candidate when due; 'left' when the entry was
   * pruned (record gone, or terminal with nothing due) or re-scored (not due yet); 'kept' when this version cannot
   * read the record (a newer writer's format: left for the newer processes to sweep).
   */
  async function checkCandidate(member: string, now: number): Promise<ExpiryCandidate | 'left' | 'kept'> {
    const ref = parseExpiryMember(member);
    const raw = ref === undefined ? null : await client.get(keys.authorization(ref.instanceId, ref.id));
    let record: AuthorizationRecord | undefined;
    try {
      record = raw === null ? undefined : decodeRecord(raw);
    } catch (error) {
      if (error instanceof RecordFormatError) return 'kept';
      throw error;
    }
    const dueAt = record === undefined ? undefined : sweepDueAt(record);
    if (ref === undefined || dueAt === undefined) {
      await client.zrem(keys.expiry, member);
      return 'left';
    }
    if (dueAt > now) {
      await client.zadd(keys.expiry, dueAt, member);
      return 'left';
    }
    return ref;
  }
}

interface Connection {
  client: Redis | Cluster;
  owned: boolean;
  /** Settles when a client the store created has made its first connection attempt. */
  firstAttempt: Promise<void>;
}

function connect(options: RedisStoreOptions): Connection {
  if (options.client !== undefined) {
    if (options.url !== undefined || options.redisOptions !== undefined) {
      throw new ConfigError('redisStore: pass either `client` or `url`/`redisOptions`, not both.');
    }
    return { client: options.client, owned: false, firstAttempt: Promise.resolve() };
  }
  if (options.url === undefined && options.redisOptions === undefined) {
    throw new ConfigError('redisStore: pass `client`, `url` or `redisOptions`.');
  }
  const defaults: RedisOptions = {
    // Fail fast instead of queueing: a command queued while Redis is down could run long after
    // its caller was told "unavailable" (a response code consumed by nobody, a claim applied late).
    enableOfflineQueue: false,
    // For the same reason, never re-send commands that were in flight when the connection dropped.
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
    connectTimeout: 2_000,
  };
  // lazyConnect: true would leave the client in 'wait' for ever: nothing here calls connect().
  const redisOptions: RedisOptions = { ...defaults, ...options.redisOptions, lazyConnect: false };
  const client = options.url === undefined ? new Redis(redisOptions) : new Redis(options.url, redisOptions);
  // Failures reach callers as StoreUnavailableError; without a listener ioredis would print
  // every failed reconnect to the console.
  client.on('error', () => undefined);
  // Without an offline queue, commands sent before the first connection is up would fail:
  // operations wait for the first attempt (bounded by commandTimeoutMs), then never again.
  const firstAttempt = new Promise<void>((resolve) => {
    const settle = () => {
      for (const event of ['ready', 'close', 'end']) client.off(event, settle);
      resolve();
    };
    for (const event of ['ready', 'close', 'end']) client.once(event, settle);
  });
  return { client, owned: true, firstAttempt };
}

const decodeRecordReply = (raw: string | null): AuthorizationRecord | null => (raw === null ? null : decodeRecord(raw));
const decodeCodeReply = (raw: string | null): ResponseCodeEntry | null => (raw === null ? null : decodeCode(raw));
const ignoreReply = (): void => undefined;

/** An operation's promise, also when it throws before returning one. */
function invoke<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return operation();
  } catch (error) {
    return Promise.reject(error);
  }
}

function checkTtl(ttlMs: number): number {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new RangeError('ttlMs must be a positive number of milliseconds.');
  // PX takes whole milliseconds; rounding up never shortens a TTL.
  return Math.ceil(ttlMs);
}

/** A caller that forgets to bump the version would let a second compare-and-set win too. */
function checkNextVersion(next: AuthorizationRecord, expectedVersion: number): void {
  if (next.version !== expectedVersion + 1) {
    throw new RangeError('compareAndSet: next.version must be expectedVersion + 1.');
  }
}
