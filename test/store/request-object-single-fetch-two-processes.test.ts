import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_API_KEY } from '@vp-authorizer/testing';
import { contractDcql } from '@vp-authorizer/testing/contracts';
import { redisUrlForTests } from '@vp-authorizer/testing/redis';
import { PUBLIC_ORIGIN, startTwoServersOnRedis, type TwoServers } from './__fixtures__/two-servers-on-redis.js';

// openId4vp.requestObject.singleFetch across two server processes sharing one Redis: the fetch
// that wins the store's compare-and-set (created → pending) is the only one served.
const url = redisUrlForTests('test/store/request-object-single-fetch-two-processes.test.ts');

describe.skipIf(url === undefined)('single-fetch request objects across two processes on Redis', () => {
  let two: TwoServers | undefined;
  beforeAll(async () => {
    two = await startTwoServersOnRedis(url!, { requestObject: { singleFetch: true } });
  });
  afterAll(async () => {
    await two?.close();
  });

  it('of simultaneous fetches spread over both processes exactly one gets the request object; the rest answer 400 invalid_request', async () => {
    const [a, b] = two!.servers.map((s) => s.origin) as [string, string];
    for (let round = 0; round < 5; round++) {
      const created = await fetch(`${a}/authz/openid4/vp/v1_0/authorizations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: contractDcql } }),
      });
      expect(created.status).toBe(201);
      const { authorizeUrl } = (await created.json()) as { authorizeUrl: string };
      const requestUri = new URL(authorizeUrl.replace(/^[a-z0-9+.-]+:\/\//i, 'https://wallet.invalid/')).searchParams.get('request_uri')!;
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          fetch(requestUri.replace(`${PUBLIC_ORIGIN}/`, `${i % 2 === 0 ? a : b}/`), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' }),
        ),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
      const refused = answers.find((r) => r.status === 400)!;
      expect(((await refused.json()) as { error: string }).error).toBe('invalid_request');
    }
  });
});
