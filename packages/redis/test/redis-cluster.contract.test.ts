import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, Redis } from 'ioredis';
import { describeStoreContract, makeTestRecord } from '@vp-authorizer/testing/contracts';
import { redisStore } from '@vp-authorizer/redis';
import { startRedisCluster, type LocalRedisCluster } from './__fixtures__/redis-cluster.js';
import { redisServerPath, redisUrlForTests, testPrefix } from '@vp-authorizer/testing/redis';

const file = 'packages/redis/test/redis-cluster.contract.test.ts';
// Same switch as every Redis suite (REDIS_URL from scripts/with-redis.mjs), plus the binary to
// start a cluster of our own.
const enabled = redisUrlForTests(file) !== undefined && redisServerPath() !== undefined;
if (!enabled && process.env.REDIS_URL) {
  console.warn(`\nREDIS CLUSTER SUITE SKIPPED: redis-server not found on PATH (install: apt-get install -y redis-server)\n  (skipped: ${file})\n`);
}

describe.skipIf(!enabled)('redisStore on a Redis Cluster (3 masters on 127.0.0.1)', () => {
  let cluster: LocalRedisCluster;
  let client: Cluster;

  beforeAll(async () => {
    cluster = await startRedisCluster(redisServerPath()!);
    client = new Cluster(
      cluster.ports.map((port) => ({ host: '127.0.0.1', port })),
      { redisOptions: { maxRetriesPerRequest: 1 } },
    );
    client.on('error', () => undefined);
  });
  afterAll(async () => {
    client?.disconnect();
    await cluster?.stop();
  });

  // Keys of many authorizations spread over all slots: the suite passing means every operation
  // stays single-slot (no CROSSSLOT), including the compare-and-set script.
  describeStoreContract('redisStore with a Cluster client', {
    realTtl: true,
    async create() {
      return { store: redisStore({ client, keyPrefix: testPrefix() }) };
    },
  });

  it('authorizations land on every master', async () => {
    const keyPrefix = testPrefix();
    const store = redisStore({ client, keyPrefix });
    const records = Array.from({ length: 60 }, () => makeTestRecord());
    for (const record of records) await store.create(record, 60_000);
    const perNode = await Promise.all(client.nodes('master').map((node) => node.dbsize()));
    expect(perNode).toHaveLength(3);
    for (const count of perNode) expect(count).toBeGreaterThan(0);
  });
});

describe.skipIf(!enabled)('redisStore with a plain client on a one-node Redis Cluster', () => {
  let cluster: LocalRedisCluster;
  let client: Redis;

  beforeAll(async () => {
    cluster = await startRedisCluster(redisServerPath()!, 1);
    client = new Redis({ host: '127.0.0.1', port: cluster.ports[0]!, maxRetriesPerRequest: 1 });
    client.on('error', () => undefined);
  });
  afterAll(async () => {
    client?.disconnect();
    await cluster?.stop();
  });

  // The client looks standalone, but the server refuses scripts over keys of two slots: the
  // store must notice (CROSSSLOT, nothing written) and keep the index with separate commands.
  it('falls back to the separate index command after a CROSSSLOT refusal, losing no write', async () => {
    const keyPrefix = testPrefix();
    const store = redisStore({ client, keyPrefix });
    const record = makeTestRecord({ expiresAt: 1_900_000_000_000 });
    const member = JSON.stringify([record.instanceId, record.id]);
    await store.create(record, 60_000);
    expect(await client.zscore(`${keyPrefix}expiry`, member)).toBe(String(record.expiresAt));
    expect(await store.compareAndSet({ ...record, version: 2, status: 'pending' }, 1)).toBe(true);
    expect(await store.compareAndSet({ ...record, version: 3, status: 'authorized' }, 2)).toBe(true);
    expect((await store.get(record.instanceId, record.id))?.version).toBe(3);
    expect(await client.zscore(`${keyPrefix}expiry`, member)).toBeNull();
  });
});
