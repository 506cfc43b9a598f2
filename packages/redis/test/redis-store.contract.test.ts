import { afterAll, beforeAll, describe } from 'vitest';
import type { Redis } from 'ioredis';
import { describeStoreContract } from '@vp-authorizer/testing/contracts';
import { redisStore } from '@vp-authorizer/redis';
import { deleteKeys, redisUrlForTests, testClient, testPrefix } from '@vp-authorizer/testing/redis';

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

  describeStoreContract('redisStore creating its own client from a URL', {
    realTtl: true,
    async create() {
      const keyPrefix = testPrefix();
      const store = redisStore({ url: url!, keyPrefix });
      return {
        store,
        async cleanup() {
          await store.close();
          await deleteKeys(admin, keyPrefix);
        },
      };
    },
  });
});
