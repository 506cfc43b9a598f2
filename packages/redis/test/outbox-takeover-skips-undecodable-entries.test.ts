import { describe, expect, it } from 'vitest';
import type { OutboxDelivery } from '@vp-authorizer/core';
import { RecordFormatError, redisStore } from '@vp-authorizer/redis';
import { redisUrlForTests, testPrefix } from '@vp-authorizer/testing/redis';
import { redisStoreTests } from './__fixtures__/redis-store-tests.js';

const url = redisUrlForTests('packages/redis/test/outbox-takeover-skips-undecodable-entries.test.ts');

const delivery = (id: string, sequence: number): OutboxDelivery => ({
  instanceId: 'i1',
  id,
  authorizationId: `a-${id}`,
  sequence,
  url: 'https://receiver.example/hook',
  eventType: 'authorization.completed',
  body: JSON.stringify({ id }),
  attempts: 1,
});

describe.skipIf(url === undefined)('webhook outbox takeover on Redis with an entry it cannot decode', () => {
  const redis = redisStoreTests(url!);

  /** Five good deliveries and one written in a newer format, all with lapsed leases. */
  async function seed(badValue: string): Promise<void> {
    redis.prefix = testPrefix();
    redis.store = redisStore({ url: url!, keyPrefix: redis.prefix });
    for (let i = 1; i <= 5; i += 1) await redis.store.addWebhook(delivery(`w${i}`, i), { holder: 'gone', until: 1 }, 100);
    await redis.store.addWebhook(delivery('w-bad', 6), { holder: 'gone', until: 0 }, 100);
    // The bad one's lease lapsed first, so takeover meets it at the head of the batch.
    await redis.admin.hset(`${redis.prefix}{w}:deliveries`, JSON.stringify(['i1', 'w-bad']), badValue);
  }

  for (const [what, badValue] of [
    ['a newer format (v:2, a rolling upgrade)', JSON.stringify({ v: 2, d: { instanceId: 'i1', id: 'w-bad' } })],
    ['a corrupt value', '{not json'],
  ] as const) {
    it(`adopts the good deliveries, sets ${what} aside once and reports it`, async () => {
      await seed(badValue);
      const reported: unknown[] = [];
      const now = Date.now();
      const taken = await redis.store.takeOverWebhooks(now, { holder: 'me', until: now + 60_000 }, 10, (error) => reported.push(error));
      expect(taken.map((d) => d.id).sort()).toEqual(['w1', 'w2', 'w3', 'w4', 'w5']);
      expect(taken.every((d) => d.attempts === 1)).toBe(true);
      expect(reported).toHaveLength(1);
      expect(reported[0]).toBeInstanceOf(RecordFormatError);

      // Set aside, not lost: kept in the quarantine hash, gone from the lease set and the count.
      const member = JSON.stringify(['i1', 'w-bad']);
      expect(await redis.admin.hget(`${redis.prefix}{w}:quarantine`, member)).toBe(badValue);
      expect(await redis.admin.hexists(`${redis.prefix}{w}:deliveries`, member)).toBe(0);
      expect(await redis.admin.zscore(`${redis.prefix}{w}:leases`, member)).toBeNull();
      expect(await redis.admin.hget(`${redis.prefix}{w}:counts`, 'i1')).toBe('5');

      // A later round neither meets it again nor reports it again.
      const later = Date.now() + 120_000;
      const again = await redis.store.takeOverWebhooks(later, { holder: 'other', until: later + 60_000 }, 10, (error) => reported.push(error));
      expect(again.map((d) => d.id).sort()).toEqual(['w1', 'w2', 'w3', 'w4', 'w5']);
      expect(reported).toHaveLength(1);
    });
  }
});
