import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { ConfigError, StoreUnavailableError, type AuthorizationRecord } from '@vp-authorizer/core';
import { makeTestRecord } from '@vp-authorizer/testing';
import { RecordFormatError, redisStore, type RedisStore } from '@vp-authorizer/redis';
import { redisUrlForTests, testClient, testPrefix } from '@vp-authorizer/testing/redis';
import { redisStoreTests } from './__fixtures__/redis-store-tests.js';
import { startTcpProxy, type TcpProxy } from '@vp-authorizer/testing';

const url = redisUrlForTests('packages/redis/test/redis-store.test.ts');
const code = { instanceId: 'i1', authorizationId: 'a1' };

/** A loopback port nothing listens on. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Every operation of the store, each expected to fail the same way. */
function everyOperation(store: RedisStore) {
  const record = makeTestRecord();
  return {
    create: () => store.create(record, 60_000),
    get: () => store.get(record.instanceId, record.id),
    compareAndSet: () => store.compareAndSet({ ...record, version: 2 }, 1),
    listDueForExpiry: () => store.listDueForExpiry(Date.now(), 10),
    put: () => store.put('i1:k', code, 60_000),
    consume: () => store.consume('i1:k'),
  };
}

describe('redisStore options', () => {
  it('rejects a key prefix containing a hash-tag brace', () => {
    expect(() => redisStore({ url: 'redis://127.0.0.1:1', keyPrefix: 'app{1}:' })).toThrow(ConfigError);
  });

  it('needs exactly one way to reach Redis', () => {
    expect(() => redisStore({})).toThrow(ConfigError);
    const client = new Redis({ lazyConnect: true });
    expect(() => redisStore({ client, url: 'redis://127.0.0.1:1' })).toThrow(ConfigError);
    client.disconnect();
  });

  it('rejects a commandTimeoutMs that is not positive, or longer than a node timer can wait (it would fire after 1 ms)', () => {
    for (const commandTimeoutMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31]) {
      expect(() => redisStore({ url: 'redis://127.0.0.1:1', commandTimeoutMs }), String(commandTimeoutMs)).toThrow(ConfigError);
    }
  });
});

// Needs no redis-server: nothing listens on the port, which is the point.
describe('redisStore when Redis is unreachable', () => {
  it('fails every operation with StoreUnavailableError (a client it created)', async () => {
    const store = redisStore({ url: `redis://127.0.0.1:${await deadPort()}` });
    try {
      for (const [name, operation] of Object.entries(everyOperation(store))) {
        await expect(operation(), name).rejects.toBeInstanceOf(StoreUnavailableError);
      }
    } finally {
      await store.close();
    }
  });

  it('fails with StoreUnavailableError within commandTimeoutMs even with a client that would retry for long', async () => {
    // ioredis defaults: offline queue on, 20 retries per request. Only the store's bound stops it.
    const client = new Redis({ host: '127.0.0.1', port: await deadPort(), lazyConnect: true });
    client.on('error', () => undefined);
    const store = redisStore({ client, commandTimeoutMs: 200 });
    try {
      await expect(store.consume('i1:k')).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.compareAndSet({ ...makeTestRecord(), version: 2 }, 1)).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      await store.close();
      // The store did not close a client it was given.
      expect(client.status).not.toBe('end');
      client.disconnect();
    }
  });

  it('the error names the failure without values or addresses', async () => {
    const port = await deadPort();
    const store = redisStore({ url: `redis://127.0.0.1:${port}` });
    try {
      const error = await store.consume('i1:secret-key').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as Error).message).not.toContain('secret-key');
      expect((error as Error).message).not.toContain(String(port));
      expect((error as StoreUnavailableError).retryAfterSeconds).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(url === undefined)('redisStore on Redis', () => {
  const redis = redisStoreTests(url!);
  const fresh = (options: { keyPrefix?: string } = {}) => {
    redis.prefix = options.keyPrefix ?? testPrefix();
    redis.store = redisStore({ url: url!, keyPrefix: redis.prefix });
    return redis.store;
  };

  describe('key layout and TTLs', () => {
    it('stores an authorization under <prefix>{a:<instance>:<id}} as a versioned envelope, with its TTL in Redis', async () => {
      fresh();
      const record = makeTestRecord();
      await redis.store.create(record, 60_000);
      const key = `${redis.prefix}{a:${record.instanceId}:${record.id}}`;
      expect(JSON.parse((await redis.admin.get(key))!)).toEqual({ v: 1, r: record });
      const ttl = await redis.admin.pttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    });

    it('stores a code under <prefix>c:<key> with its TTL in Redis', async () => {
      fresh();
      await redis.store.put('i1:hash', code, 30_000);
      expect(JSON.parse((await redis.admin.get(`${redis.prefix}c:i1:hash`))!)).toEqual({ v: 1, c: code });
      const ttl = await redis.admin.pttl(`${redis.prefix}c:i1:hash`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(30_000);
    });

    it("uses the default prefix 'vpa:'", async () => {
      redis.prefix = 'vpa:';
      redis.store = redisStore({ url: url! });
      const record = makeTestRecord();
      await redis.store.create(record, 60_000);
      expect(await redis.admin.exists(`vpa:{a:${record.instanceId}:${record.id}}`)).toBe(1);
      await redis.admin.del(`vpa:{a:${record.instanceId}:${record.id}}`, 'vpa:expiry');
    });

    it('compare-and-set keeps the TTL in Redis', async () => {
      fresh();
      const record = makeTestRecord();
      await redis.store.create(record, 60_000);
      expect(await redis.store.compareAndSet({ ...record, version: 2, status: 'pending' }, 1)).toBe(true);
      expect(await redis.admin.pttl(`${redis.prefix}{a:${record.instanceId}:${record.id}}`)).toBeGreaterThan(0);
    });

    it('instance ids with :, { or } neither collide nor break the hash tag', async () => {
      fresh();
      const a = makeTestRecord({ instanceId: 'x:y', id: 'z' });
      const b = makeTestRecord({ instanceId: 'x', id: 'y:z' });
      const braces = makeTestRecord({ instanceId: 'n}{m' });
      for (const r of [a, b, braces]) await redis.store.create(r, 60_000);
      expect(await redis.store.get('x:y', 'z')).toEqual(a);
      expect(await redis.store.get('x', 'y:z')).toEqual(b);
      expect(await redis.admin.exists(`${redis.prefix}{a:n%7D%7Bm:${braces.id}}`)).toBe(1);
    });
  });

  describe('expiry index (a hint: see redis-store)', () => {
    const score = (record: AuthorizationRecord) => redis.admin.zscore(`${redis.prefix}expiry`, JSON.stringify([record.instanceId, record.id]));

    it('indexes an open record at its expiresAt, moves it when expiresAt changes, drops it when terminal', async () => {
      fresh();
      const record = makeTestRecord({ expiresAt: 1_900_000_000_000 });
      await redis.store.create(record, 60_000);
      expect(await score(record)).toBe(String(record.expiresAt));
      const later = { ...record, version: 2, status: 'pending' as const, expiresAt: record.expiresAt + 5 };
      expect(await redis.store.compareAndSet(later, 1)).toBe(true);
      expect(await score(record)).toBe(String(later.expiresAt));
      expect(await redis.store.compareAndSet({ ...later, version: 3, status: 'authorized' }, 2)).toBe(true);
      expect(await score(record)).toBeNull();
    });

    it('re-scores a claimed record to its claim deadline and back to expiresAt when the claim is released', async () => {
      fresh();
      const record = makeTestRecord({ expiresAt: 1_900_000_000_000 });
      await redis.store.create(record, 60_000);
      const claimed = { ...record, version: 2, status: 'pending' as const, responseClaimedAt: 1, claimExpiresAt: record.expiresAt - 1_000 };
      expect(await redis.store.compareAndSet(claimed, 1)).toBe(true);
      expect(await score(record)).toBe(String(claimed.claimExpiresAt));
      const { responseClaimedAt: _at, claimExpiresAt: _until, ...released } = claimed;
      expect(await redis.store.compareAndSet({ ...released, version: 3 }, 2)).toBe(true);
      expect(await score(record)).toBe(String(record.expiresAt));
    });

    it('a refused compare-and-set or duplicate create leaves the index as it was', async () => {
      fresh();
      const record = makeTestRecord({ expiresAt: 1_900_000_000_000 });
      await redis.store.create(record, 60_000);
      expect(await redis.store.compareAndSet({ ...record, version: 8, status: 'authorized' }, 7)).toBe(false);
      expect(await score(record)).toBe(String(record.expiresAt));
      await expect(redis.store.create({ ...record, expiresAt: record.expiresAt + 5 }, 60_000)).rejects.toThrow();
      expect(await score(record)).toBe(String(record.expiresAt));
    });

    it('on standalone Redis, create and compare-and-set each send one command (the script moves the index)', async () => {
      redis.prefix = testPrefix();
      const client = testClient(url!);
      try {
        redis.store = redisStore({ client, keyPrefix: redis.prefix });
        await redis.store.get('warm', 'up');
        const sent = recordCommandNames(client);
        const record = makeTestRecord({ expiresAt: 1_900_000_000_000 });
        await redis.store.create(record, 60_000);
        expect(await redis.store.compareAndSet({ ...record, version: 2, status: 'pending' }, 1)).toBe(true);
        expect(await redis.store.compareAndSet({ ...record, version: 3, status: 'authorized' }, 2)).toBe(true);
        // EVAL only when the server did not know a script yet (EVALSHA answered NOSCRIPT).
        expect(sent.filter((name) => name !== 'eval')).toEqual(['evalsha', 'evalsha', 'evalsha']);
        expect(await score(record)).toBeNull();
      } finally {
        await redis.store.close();
        await client.quit();
      }
    });

    it('with expiryIndexInScript: false (a proxy that shards plain Redis by first key), the index is its own command and stays right', async () => {
      redis.prefix = testPrefix();
      const client = testClient(url!);
      try {
        redis.store = redisStore({ client, keyPrefix: redis.prefix, expiryIndexInScript: false });
        await redis.store.get('warm', 'up');
        const sent = recordCommandNames(client);
        const record = makeTestRecord({ expiresAt: 1_900_000_000_000 });
        await redis.store.create(record, 60_000);
        expect(sent).toContain('zadd');
        expect(await score(record)).toBe(String(record.expiresAt));
        expect(await redis.store.compareAndSet({ ...record, version: 2, status: 'authorized' }, 1)).toBe(true);
        expect(sent).toContain('zrem');
        expect(await score(record)).toBeNull();
      } finally {
        await redis.store.close();
        await client.quit();
      }
    });

    it('listDueForExpiry prunes entries whose record is gone or terminal and re-scores early ones', async () => {
      fresh();
      const now = 1_900_000_000_000;
      const gone = makeTestRecord({ expiresAt: now });
      const terminal = makeTestRecord({ expiresAt: now, status: 'authorized' });
      const notYet = makeTestRecord({ expiresAt: now + 60_000 });
      await redis.store.create(gone, 60_000);
      await redis.admin.del(`${redis.prefix}{a:${gone.instanceId}:${gone.id}}`);
      await redis.store.create(terminal, 60_000);
      await redis.store.create(notYet, 60_000);
      // Stale hints, as a lost ZREM / ZADD would leave them.
      await redis.admin.zadd(`${redis.prefix}expiry`, now, JSON.stringify([terminal.instanceId, terminal.id]));
      await redis.admin.zadd(`${redis.prefix}expiry`, now, JSON.stringify([notYet.instanceId, notYet.id]));
      await redis.admin.zadd(`${redis.prefix}expiry`, now, 'not a member of ours');

      expect(await redis.store.listDueForExpiry(now, 10)).toEqual([]);
      expect(await score(gone)).toBeNull();
      expect(await score(terminal)).toBeNull();
      expect(await score(notYet)).toBe(String(notYet.expiresAt));
      expect(await redis.admin.zcard(`${redis.prefix}expiry`)).toBe(1);
    });

    it('stale entries at the head of the index do not hide due records', async () => {
      fresh();
      const now = 1_900_000_000_000;
      for (let i = 0; i < 8; i++) await redis.admin.zadd(`${redis.prefix}expiry`, now - 100 + i, JSON.stringify(['ghost', `g${i}`]));
      const due = [makeTestRecord({ expiresAt: now }), makeTestRecord({ expiresAt: now }), makeTestRecord({ expiresAt: now })];
      for (const r of due) await redis.store.create(r, 60_000);
      const listed = await redis.store.listDueForExpiry(now, 3);
      expect(listed.map((c) => c.id).sort()).toEqual(due.map((r) => r.id).sort());
    });

    it('due records still open are listed once, even across pages', async () => {
      fresh();
      const now = 1_900_000_000_000;
      const due = Array.from({ length: 4 }, (_, i) => makeTestRecord({ expiresAt: now - i }));
      for (const r of due) await redis.store.create(r, 60_000);
      await redis.admin.zadd(`${redis.prefix}expiry`, now - 10, JSON.stringify(['ghost', 'g']));
      const listed = await redis.store.listDueForExpiry(now, 10);
      expect(listed).toHaveLength(4);
      expect(new Set(listed.map((c) => c.id)).size).toBe(4);
    });
  });

  describe('format versions', () => {
    it('refuses a record written in a newer format, on read and on compare-and-set, with a clear error', async () => {
      fresh();
      const record = makeTestRecord();
      await redis.admin.set(`${redis.prefix}{a:${record.instanceId}:${record.id}}`, JSON.stringify({ v: 2, r: record }), 'PX', 60_000);
      const read = await redis.store.get(record.instanceId, record.id).catch((e: unknown) => e);
      expect(read).toBeInstanceOf(RecordFormatError);
      expect((read as RecordFormatError).formatVersion).toBe(2);
      expect((read as Error).message).toMatch(/v2.*Upgrade @vp-authorizer\/redis/s);
      const cas = await redis.store.compareAndSet({ ...record, version: 2 }, 1).catch((e: unknown) => e);
      expect(cas).toBeInstanceOf(RecordFormatError);
      expect((cas as RecordFormatError).formatVersion).toBe(2);
      // Nothing was overwritten.
      expect(JSON.parse((await redis.admin.get(`${redis.prefix}{a:${record.instanceId}:${record.id}}`))!).v).toBe(2);
    });

    it('refuses a code written in a newer format, and values that are not ours', async () => {
      fresh();
      await redis.admin.set(`${redis.prefix}c:i1:new`, JSON.stringify({ v: 3, c: code }), 'PX', 60_000);
      await redis.admin.set(`${redis.prefix}c:i1:junk`, 'hello', 'PX', 60_000);
      await expect(redis.store.consume('i1:new')).rejects.toBeInstanceOf(RecordFormatError);
      await expect(redis.store.consume('i1:junk')).rejects.toBeInstanceOf(RecordFormatError);
      const record = makeTestRecord();
      await redis.admin.set(`${redis.prefix}{a:${record.instanceId}:${record.id}}`, '{"r":{}}', 'PX', 60_000);
      await expect(redis.store.get(record.instanceId, record.id)).rejects.toBeInstanceOf(RecordFormatError);
      await expect(redis.store.compareAndSet({ ...record, version: 2 }, 1)).rejects.toBeInstanceOf(RecordFormatError);
    });

    it('listDueForExpiry skips (and keeps) entries of a newer format instead of failing', async () => {
      fresh();
      const now = 1_900_000_000_000;
      const newer = makeTestRecord({ expiresAt: now });
      const mine = makeTestRecord({ expiresAt: now });
      await redis.store.create(newer, 60_000);
      await redis.store.create(mine, 60_000);
      await redis.admin.set(`${redis.prefix}{a:${newer.instanceId}:${newer.id}}`, JSON.stringify({ v: 2, r: newer }), 'KEEPTTL');
      expect(await redis.store.listDueForExpiry(now, 10)).toEqual([{ instanceId: mine.instanceId, id: mine.id }]);
      expect(await redis.admin.zcard(`${redis.prefix}expiry`)).toBe(2);
    });
  });

  it('compare-and-set still works after the server forgot the script (EVALSHA falls back to EVAL)', async () => {
    fresh();
    const record = makeTestRecord();
    await redis.store.create(record, 60_000);
    expect(await redis.store.compareAndSet({ ...record, version: 2 }, 1)).toBe(true);
    await redis.admin.script('FLUSH');
    expect(await redis.store.compareAndSet({ ...record, version: 3 }, 2)).toBe(true);
    expect((await redis.store.get(record.instanceId, record.id))?.version).toBe(3);
  });

  describe('client ownership', () => {
    it('close() leaves a client passed in open', async () => {
      redis.prefix = testPrefix();
      const client = testClient(url!);
      const borrowed = redisStore({ client, keyPrefix: redis.prefix });
      await borrowed.put('i1:k', code, 60_000);
      await borrowed.close();
      expect(await client.ping()).toBe('PONG');
      expect(await client.exists(`${redis.prefix}c:i1:k`)).toBe(1);
      await client.quit();
    });

    it('close() quits a client it created; later operations fail with StoreUnavailableError', async () => {
      fresh();
      await redis.store.put('i1:k', code, 60_000);
      await redis.store.close();
      await expect(redis.store.consume('i1:k')).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(await redis.admin.exists(`${redis.prefix}c:i1:k`)).toBe(1);
    });

    it('redisOptions { lazyConnect: true } no longer leaves a client it owns unconnected for ever', async () => {
      redis.prefix = testPrefix();
      redis.store = redisStore({ url: url!, keyPrefix: redis.prefix, redisOptions: { lazyConnect: true } });
      await expect(redis.store.consume('i1:none')).resolves.toBeNull();
      await redis.store.put('i1:k', code, 60_000);
      expect(await redis.store.consume('i1:k')).toEqual(code);
    });

    it('a process exits once its store is closed, even with a long commandTimeoutMs (deadlines hold no process open)', async () => {
      // The built package, in a child process: nothing of vitest keeps that event loop alive.
      const entry = pathToFileURL(fileURLToPath(new URL('../dist/index.js', import.meta.url))).href;
      const script = `const { redisStore } = await import(${JSON.stringify(entry)});
const store = redisStore({ url: process.env.URL, keyPrefix: process.env.PREFIX, commandTimeoutMs: 600000 });
await store.put('i1:k', { instanceId: 'i1', authorizationId: 'a1' }, 60000);
const got = await store.consume('i1:k');
await store.close();
console.log(JSON.stringify(got));`;
      redis.prefix = testPrefix();
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, URL: url!, PREFIX: redis.prefix }, stdio: ['ignore', 'pipe', 'inherit'], timeout: 25_000, killSignal: 'SIGKILL' });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const exitCode = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(exitCode).toBe(0);
      expect(JSON.parse(out)).toEqual(code);
    }, 30_000);

    it('works right after construction (operations wait for the first connection)', async () => {
      fresh();
      // No await between creating the client and the first command.
      await expect(redis.store.consume('i1:none')).resolves.toBeNull();
    });
  });

  describe('an outage', () => {
    let proxy: TcpProxy;
    afterEach(async () => {
      await proxy?.close();
    });

    it('fails operations with StoreUnavailableError while Redis is unreachable and loses nothing already stored', async () => {
      proxy = await startTcpProxy(Number(new URL(url!).port));
      redis.prefix = testPrefix();
      redis.store = redisStore({ url: `redis://127.0.0.1:${proxy.port}`, keyPrefix: redis.prefix });
      const record = makeTestRecord();
      await redis.store.create(record, 60_000);
      await redis.store.put('i1:k', code, 60_000);

      await proxy.down();
      for (const [name, operation] of Object.entries(everyOperation(redis.store))) {
        await expect(operation(), name).rejects.toBeInstanceOf(StoreUnavailableError);
      }

      await proxy.up();
      // Wait for ioredis to reconnect (its backoff), then check the data survived untouched.
      await eventually(() => redis.store.get(record.instanceId, record.id));
      expect(await redis.store.get(record.instanceId, record.id)).toEqual(record);
      expect(await redis.store.consume('i1:k')).toEqual(code);
    });
  });
});

/** Retries `operation` until it stops throwing (reconnect backoff), failing after 15 s. */
async function eventually<T>(operation: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      return await operation();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** The names of the commands `client` sends from now on, in order. */
function recordCommandNames(client: Redis): string[] {
  const sent: string[] = [];
  const send = client.sendCommand.bind(client);
  client.sendCommand = ((command: { name: string }, ...rest: unknown[]) => {
    sent.push(command.name);
    return (send as (...args: unknown[]) => unknown)(command, ...rest);
  }) as typeof client.sendCommand;
  return sent;
}
