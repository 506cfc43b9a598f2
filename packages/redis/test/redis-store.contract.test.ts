import { afterAll, beforeAll, describe } from 'vitest';
import type { Redis } from 'ioredis';
import { describeStoreContract } from '@vp-authorizer/testing/contracts';
import { redisStore } from '@vp-authorizer/redis';
import { deleteKeys, redisUrlForTests, testClient, testPrefix } from '@vp-authorizer/testing/redis';
import { startTcpProxy } from '@vp-authorizer/testing';

const url = redisUrlForTests('packages/redis/test/redis-store.contract.test.ts');

describe.skipIf(url === undefined)('redisStore', () => {
  let admin: Redis;
  beforeAll(() => {
    admin = testClient(url!);
  });
  afterAll(async () => {
    await admin.quit();
  });

  describeStoreContract('redisStore with a client passed in', {
    realTtl: true,
    async create() {
      const keyPrefix = testPrefix();
      const store = redisStore({ client: admin, keyPrefix });
      return { store, cleanup: () => deleteKeys(admin, keyPrefix) };
    },
  });

  // Through a TCP proxy, so that the contract can cut the connection (readiness under an outage).
  describeStoreContract('redisStore creating its own client from a URL', {
    realTtl: true,
    outages: true,
    async create() {
      const keyPrefix = testPrefix();
      const proxy = await startTcpProxy(Number(new URL(url!).port));
      const store = redisStore({ url: `redis://127.0.0.1:${proxy.port}`, keyPrefix });
      return {
        store,
        outage: proxy,
        async cleanup() {
          await store.close();
          await proxy.close();
          await deleteKeys(admin, keyPrefix);
        },
      };
    },
  });
});
