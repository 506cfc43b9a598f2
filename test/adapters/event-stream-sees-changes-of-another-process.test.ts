import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Authorizer, AuthorizerEvent } from '@vp-authorizer/core';
import { redisStore } from '@vp-authorizer/redis';
import { TEST_API_KEY, TEST_MOUNT_PATH, createPassThroughAuthorizer, createTestClock, openEventStream, startPassThroughAuthorizer, type PassThroughAuthorizerServer } from '@vp-authorizer/testing';
import { contractDcql } from '@vp-authorizer/testing/contracts';
import { deleteKeys, redisUrlForTests, testClient, testPrefix } from '@vp-authorizer/testing/redis';

// Two processes on one Redis: a stream opened on A learns of a change written by B through A's
// re-read of the record, at most `pollMs` later (in-process events never cross processes).
const url = redisUrlForTests('test/adapters/event-stream-sees-changes-of-another-process.test.ts');

describe.skipIf(url === undefined)('event streams with two authorizers on one Redis store', () => {
  const keyPrefix = testPrefix();
  const clock = createTestClock(Date.now());
  const eventsOfA: AuthorizerEvent[] = [];
  let admin: ReturnType<typeof testClient>;
  let a: PassThroughAuthorizerServer;
  let b: Authorizer;
  const stores: ReturnType<typeof redisStore>[] = [];

  beforeAll(async () => {
    admin = testClient(url!);
    const storeA = redisStore({ url: url!, keyPrefix });
    const storeB = redisStore({ url: url!, keyPrefix });
    stores.push(storeA, storeB);
    // A slow heartbeat and a fast poll: what reaches A's stream comes from its re-reads.
    a = await startPassThroughAuthorizer({ clock, store: storeA, eventStreams: { pollMs: 50, heartbeatMs: 60_000 }, onEvent: (e) => void eventsOfA.push(e) });
    b = await createPassThroughAuthorizer({ publicBaseUrl: a.base, basePath: TEST_MOUNT_PATH, clock, store: storeB });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    for (const store of stores) await store.close();
    await deleteKeys(admin, keyPrefix);
    await admin.quit();
  });

  it('a status written by process B reaches a stream opened on process A, and the stream ends on the terminal one', async () => {
    const created = await a.api('/openid4/vp/v1_0/authorizations', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: contractDcql } }),
    });
    expect(created.status).toBe(201);
    const { authorizationId } = (await created.json()) as { authorizationId: string };
    const stream = await openEventStream(`${a.base}/openid4/vp/v1_0/authorizations/${authorizationId}/events`, TEST_API_KEY);
    expect(await stream.nextEvent()).toEqual({ event: 'status', data: { status: 'created' } });

    await b.getRequestObject(authorizationId); // the wallet reached B: B writes `pending`
    expect(await stream.nextEvent()).toEqual({ event: 'status', data: { status: 'pending' } });
    expect(eventsOfA.map((e) => e.type)).toEqual(['authorization.created']); // A never saw it happen

    clock.advance(10 * 60_000);
    await b.sweepExpired();
    expect(await stream.nextEvent()).toEqual({ event: 'status', data: { status: 'expired' } });
    expect(await stream.next()).toBeUndefined();
    expect(a.authorizer.eventStreamStats()).toEqual({ streams: 0, listeners: 0, timers: 0 });
  });
});
