import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { memoryStore, type Authorizer } from '@vp-authorizer/core';
import { createPassThroughAuthorizer, TEST_API_KEY, TEST_OTHER_API_KEY } from '../authorizer/pass-through-authorizer.js';
import { openEventStream } from '../authorizer/event-stream-reader.js';
import { createTestClock, type TestClock } from '../store-contract/test-clock.js';
import { contractDcql } from './contract-wallet.js';
import type { HttpTarget, MountedHttpTarget } from './http-target.js';

const PREFIX = '/authz';
const API = '/openid4/vp/v1_0';

/**
 * `GET …/authorizations/{id}/events` (Server-Sent Events) over real HTTP through one adapter: the
 * current status at once, each change in order, heartbeats, the end after a terminal status, and
 * the stream's listener and timers released when the client goes away. An adapter that buffers
 * whole answers fails it.
 */
export function describeEventStreamContract(name: string, target: HttpTarget): void {
  describe(`${name}: GET …/authorizations/{id}/events (Server-Sent Events)`, () => {
    let mounted: MountedHttpTarget;
    let authorizer: Authorizer;
    let clock: TestClock;
    let base: string;

    const createAuthorization = async (): Promise<{ authorizationId: string; authorizeUrl: string }> => {
      const res = await fetch(`${base}${API}/authorizations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: contractDcql } }),
      });
      expect(res.status).toBe(201);
      return (await res.json()) as { authorizationId: string; authorizeUrl: string };
    };
    // What a wallet does first: fetch the request object (the authorization becomes `pending`).
    const fetchRequestObject = async (authorizeUrl: string): Promise<void> => {
      const requestUri = new URL(authorizeUrl.replace(/^[a-z0-9+.-]+:\/\//i, 'https://wallet.invalid/')).searchParams.get('request_uri')!;
      const res = await fetch(requestUri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
      expect(res.status).toBe(200);
      await res.text();
    };
    const events = (id: string, key: string | null = TEST_API_KEY) => openEventStream(`${base}${API}/authorizations/${id}/events`, key);

    beforeAll(async () => {
      mounted = await target.start({ prefix: PREFIX });
      base = `${mounted.origin}${PREFIX}`;
      clock = createTestClock(Date.now());
      // A fast heartbeat and a slow poll: the changes of this suite reach the stream as in-process events.
      authorizer = await createPassThroughAuthorizer({
        publicBaseUrl: base,
        basePath: PREFIX,
        clock,
        store: memoryStore({ clock, sweepIntervalMs: 0 }),
        eventStreams: { heartbeatMs: 100, pollMs: 60_000 },
      });
      mounted.attach(authorizer);
    });
    afterAll(async () => {
      await authorizer?.close();
      await mounted?.close();
    });

    it('sends the current status at once, each change in order, then closes after the terminal status', async () => {
      const created = await createAuthorization();
      const stream = await events(created.authorizationId);
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(stream.response.headers.get('cache-control')).toBe('no-store');
      expect(stream.response.headers.get('x-accel-buffering')).toBe('no');
      expect(await stream.nextEvent()).toEqual({ event: 'status', data: { status: 'created' } });

      await fetchRequestObject(created.authorizeUrl);
      expect(await stream.nextEvent()).toEqual({ event: 'status', data: { status: 'pending' } });

      // Nothing changes for a while: heartbeat comments keep the connection alive.
      expect(await stream.next()).toEqual({ comment: 'heartbeat' });

      clock.advance(10 * 60_000);
      expect(await authorizer.sweepExpired()).toBe(1);
      expect(await stream.nextEvent()).toEqual({ event: 'status', data: { status: 'expired' } });
      expect(await stream.next()).toBeUndefined();
      await vi.waitFor(() => expect(authorizer.eventStreamStats()).toEqual({ streams: 0, listeners: 0, timers: 0 }));
    });

    it('answers a terminal authorization with its status and the end of the stream', async () => {
      const created = await createAuthorization();
      // Read lazily as expired (never fetched, it is kept only shortly past its expiry).
      clock.advance(5 * 60_000 + 30_000);
      const stream = await events(created.authorizationId);
      expect(await stream.nextEvent()).toEqual({ event: 'status', data: { status: 'expired' } });
      expect(await stream.next()).toBeUndefined();
    });

    it('releases its listener and timers when the client goes away', async () => {
      const created = await createAuthorization();
      const stream = await events(created.authorizationId);
      expect(await stream.nextEvent()).toEqual({ event: 'status', data: { status: 'created' } });
      expect(authorizer.eventStreamStats()).toMatchObject({ streams: 1, listeners: 1 });
      stream.abort();
      await vi.waitFor(() => expect(authorizer.eventStreamStats()).toEqual({ streams: 0, listeners: 0, timers: 0 }));
    });

    it('needs an API key of the instance that owns the authorization (401, then 404 for another instance)', async () => {
      const created = await createAuthorization();
      const anonymous = await fetch(`${base}${API}/authorizations/${created.authorizationId}/events`);
      expect(anonymous.status).toBe(401);
      const other = await fetch(`${base}${API}/authorizations/${created.authorizationId}/events`, { headers: { authorization: `Bearer ${TEST_OTHER_API_KEY}` } });
      expect(other.status).toBe(404);
      expect(((await other.json()) as { type: string }).type).toBe('authorization.not_found');
      expect(authorizer.eventStreamStats()).toEqual({ streams: 0, listeners: 0, timers: 0 });
    });
  });
}
