import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Authorizer, AuthorizerEvent } from '@vp-authorizer/core';
import { redisStore } from '@vp-authorizer/redis';
import { createTestClock, type MountedHttpTarget } from '@vp-authorizer/testing';
import { deleteKeys, redisUrlForTests, testClient, testPrefix } from '@vp-authorizer/testing/redis';
import { buildAuthorizer, createAuthorization, openEvents, PREFIX, streamingFetchTarget } from './authorization-events-harness.js';

// Two processes on one Redis: a stream opened on A learns of a change written by B through A's
// re-read of the record, at most `pollMs` later (in-process events never cross processes).
const url = redisUrlForTests('test/adapters/authorization-events-redis.test.ts');

describe.skipIf(url === undefined)('event streams with two authorizers on one Redis store', () => {
  const keyPrefix = testPrefix();
  const clock = createTestClock(Date.now());
  const eventsOfA: AuthorizerEvent[] = [];
  let admin: ReturnType<typeof testClient>;
  let mounted: MountedHttpTarget;
  let a: Authorizer;
  let b: Authorizer;
  const stores: ReturnType<typeof redisStore>[] = [];

  beforeAll(async () => {
    admin = testClient(url!);
    mounted = await streamingFetchTarget().start({ prefix: PREFIX });
    const storeA = redisStore({ url: url!, keyPrefix });
    const storeB = redisStore({ url: url!, keyPrefix });
    stores.push(storeA, storeB);
    // A slow heartbeat and a fast poll: what reaches A's stream comes from its re-reads.
    a = await buildAuthorizer(mounted.origin, { clock, store: storeA, eventStreams: { pollMs: 50, heartbeatMs: 60_000 }, onEvent: (e) => void eventsOfA.push(e) });
    b = await buildAuthorizer(mounted.origin, { clock, store: storeB });
    mounted.attach(a);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await mounted?.close();
    for (const store of stores) await store.close();
    await deleteKeys(admin, keyPrefix);
    await admin.quit();
  });

  it('a status written by process B reaches a stream opened on process A, and the stream ends on the terminal one', async () => {
    const { authorizationId } = await createAuthorization(mounted.origin);
    const stream = await openEvents(mounted.origin, authorizationId);
    expect(await stream.nextEvent()).toEqual({ event: 'status', data: { status: 'created' } });

    await b.getRequestObject(authorizationId); // the wallet reached B: B writes `pending`
    expect(await stream.nextEvent()).toEqual({ event: 'status', data: { status: 'pending' } });
    expect(eventsOfA.map((e) => e.type)).toEqual(['authorization.created']); // A never saw it happen

    clock.advance(10 * 60_000);
    await b.sweepExpired();
    expect(await stream.nextEvent()).toEqual({ event: 'status', data: { status: 'expired' } });
    expect(await stream.next()).toBeUndefined();
    expect(a.eventStreamStats()).toEqual({ streams: 0, listeners: 0, timers: 0 });
  });
});
