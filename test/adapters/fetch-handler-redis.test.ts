import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeHttpContract, fetchHandlerTarget } from '@vp-authorizer/testing/contracts';
import { redisStore } from '@vp-authorizer/redis';
import { deleteKeys, redisUrlForTests, testClient, testPrefix } from '@vp-authorizer/testing/redis';

// The whole HTTP contract with the authorizer on the Redis store instead of the in-memory one:
// same routes, same flows, every record and response code going through Redis.
const url = redisUrlForTests('test/adapters/fetch-handler-redis.test.ts');

describe.skipIf(url === undefined)('fetch handler on the Redis store', () => {
  let admin: ReturnType<typeof testClient>;
  /** Every prefix a store of this run used: checked for keys, then deleted. */
  const prefixes: string[] = [];

  beforeAll(() => {
    admin = testClient(url!);
  });
  afterAll(async () => {
    for (const prefix of prefixes) await deleteKeys(admin, prefix);
    await admin.quit();
  });

  describeHttpContract('fetch handler (authorizer.fetch on node:http) on redisStore', fetchHandlerTarget(), {
    async store() {
      const keyPrefix = testPrefix();
      prefixes.push(keyPrefix);
      const store = redisStore({ url: url!, keyPrefix });
      return { store, cleanup: () => store.close() };
    },
  });

  // Guards against the option being ignored (the contract would then pass on a memory store).
  it('the contract wrote its authorizations to Redis under the run prefix', async () => {
    expect(prefixes.length).toBeGreaterThanOrEqual(1);
    let found = 0;
    for (const prefix of prefixes) found += (await admin.keys(`${prefix}*`)).length;
    expect(found).toBeGreaterThan(0);
  });
});
