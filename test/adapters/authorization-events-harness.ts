import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAuthorizer, generateDevSigningKey, memoryStore, passThroughValidator, passThroughVerifier, type Authorizer, type AuthorizerOptions } from '@vp-authorizer/core';
import { createTestClock, listenOnLoopback, type HttpTarget, type MountedHttpTarget, type TestClock } from '@vp-authorizer/testing';

export const KEY_MAIN = 'events-test-key-main-0001';
export const KEY_OTHER = 'events-test-key-other-0001';
export const PREFIX = '/authz';
export const API = '/openid4/vp/v1_0';
const DCQL = { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: [{ path: ['given_name'] }] }] };

/** Two instances (main, other) with pass-through clients; the rest from `overrides`. */
export async function buildAuthorizer(base: string, overrides: Partial<AuthorizerOptions> = {}): Promise<Authorizer> {
  const [main, other] = await Promise.all([generateDevSigningKey(), generateDevSigningKey()]);
  return createAuthorizer({
    publicBaseUrl: `${base}${PREFIX}`,
    basePath: PREFIX,
    sweepIntervalMs: 0,
    instances: [
      { id: 'main', apiKeys: [KEY_MAIN], signing: main.signing, validator: passThroughValidator(), verifier: passThroughVerifier() },
      { id: 'other', apiKeys: [KEY_OTHER], signing: other.signing, validator: passThroughValidator(), verifier: passThroughVerifier() },
    ],
    ...overrides,
  });
}

export async function createAuthorization(base: string, key = KEY_MAIN): Promise<{ authorizationId: string; authorizeUrl: string }> {
  const res = await fetch(`${base}${PREFIX}${API}/authorizations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: DCQL } }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { authorizationId: string; authorizeUrl: string };
}

/** What a wallet does first: fetch the request object (the authorization becomes `pending`). */
export async function fetchRequestObject(authorizeUrl: string): Promise<void> {
  const requestUri = new URL(authorizeUrl.replace(/^[a-z0-9+.-]+:\/\//i, 'https://wallet.invalid/')).searchParams.get('request_uri')!;
  const res = await fetch(requestUri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
  expect(res.status).toBe(200);
  await res.text();
}

export type SseItem = { event: string; data: unknown } | { comment: string };

/** An open event stream read item by item: `next()` waits for the next event or comment, undefined at the end. */
export interface SseReader {
  response: Response;
  next(): Promise<SseItem | undefined>;
  /** The next event, skipping heartbeat comments. */
  nextEvent(): Promise<{ event: string; data: unknown } | undefined>;
  abort(): void;
}

export async function openEvents(base: string, authorizationId: string, key: string | null = KEY_MAIN): Promise<SseReader> {
  const controller = new AbortController();
  const response = await fetch(`${base}${PREFIX}${API}/authorizations/${authorizationId}/events`, {
    headers: key === null ? {} : { authorization: `Bearer ${key}` },
    signal: controller.signal,
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const next = async (): Promise<SseItem | undefined> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (block.startsWith(':')) return { comment: block.slice(1).trim() };
        const fields = Object.fromEntries(block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]));
        return { event: fields.event ?? 'message', data: JSON.parse(fields.data ?? 'null') };
      }
      const chunk = await reader.read();
      if (chunk.done) {
        expect(buffer).toBe(''); // nothing half-sent
        return undefined;
      }
      buffer += chunk.value;
    }
  };
  return {
    response,
    next,
    async nextEvent() {
      for (;;) {
        const item = await next();
        if (!item || 'event' in item) return item;
      }
    },
    abort: () => controller.abort(),
  };
}

/**
 * The fetch handler (authorizer.fetch) on node:http with a bridge that streams the Response body
 * as it is produced and cancels it when the client goes away (the HTTP contract's fetch target
 * buffers whole bodies, which an event stream never completes).
 */
export function streamingFetchTarget(): HttpTarget {
  return {
    async start() {
      let authorizer: Authorizer | undefined;
      const listening = await listenOnLoopback(async (req, res) => {
        if (!authorizer) return void res.writeHead(503).end();
        const headers = new Headers();
        for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
        const response = await authorizer.fetch(new Request(new URL(req.url ?? '/', origin), { method: req.method ?? 'GET', headers, ...(hasBody ? { body: Buffer.concat(chunks) } : {}) }));
        res.writeHead(response.status, Object.fromEntries(response.headers));
        if (!response.body) return void res.end();
        const reader = response.body.getReader();
        res.once('close', () => void reader.cancel().catch(() => {}));
        res.flushHeaders();
        for (;;) {
          const { done, value } = await reader.read().catch(() => ({ done: true as const, value: undefined }));
          if (done || res.destroyed) break;
          res.write(value);
        }
        res.end();
      });
      const origin = listening.origin;
      return { origin, attach: (a) => void (authorizer = a), close: listening.close };
    },
  };
}

/** The event-stream behaviour over real HTTP through one adapter. */
export function describeAuthorizationEvents(name: string, target: HttpTarget): void {
  describe(`${name}: GET …/authorizations/{id}/events (Server-Sent Events)`, () => {
    let mounted: MountedHttpTarget;
    let authorizer: Authorizer;
    let clock: TestClock;
    let base: string;

    beforeAll(async () => {
      mounted = await target.start({ prefix: PREFIX });
      base = mounted.origin;
      clock = createTestClock(Date.now());
      // A fast heartbeat and a slow poll: the changes of this test reach the stream as in-process events.
      authorizer = await buildAuthorizer(base, { clock, store: memoryStore({ clock, sweepIntervalMs: 0 }), eventStreams: { heartbeatMs: 100, pollMs: 60_000 } });
      mounted.attach(authorizer);
    });
    afterAll(async () => {
      await authorizer?.close();
      await mounted?.close();
    });

    it('sends the current status at once, each change in order, then closes after the terminal status', async () => {
      const created = await createAuthorization(base);
      const stream = await openEvents(base, created.authorizationId);
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
      const created = await createAuthorization(base);
      // Read lazily as expired (never fetched, it is kept only shortly past its expiry).
      clock.advance(5 * 60_000 + 30_000);
      const stream = await openEvents(base, created.authorizationId);
      expect(await stream.nextEvent()).toEqual({ event: 'status', data: { status: 'expired' } });
      expect(await stream.next()).toBeUndefined();
    });

    it('releases its listener and timers when the client goes away', async () => {
      const created = await createAuthorization(base);
      const stream = await openEvents(base, created.authorizationId);
      expect(await stream.nextEvent()).toEqual({ event: 'status', data: { status: 'created' } });
      expect(authorizer.eventStreamStats()).toMatchObject({ streams: 1, listeners: 1 });
      stream.abort();
      await vi.waitFor(() => expect(authorizer.eventStreamStats()).toEqual({ streams: 0, listeners: 0, timers: 0 }));
    });

    it('needs an API key of the instance that owns the authorization (401, then 404 for another instance)', async () => {
      const created = await createAuthorization(base);
      const anonymous = await fetch(`${base}${PREFIX}${API}/authorizations/${created.authorizationId}/events`);
      expect(anonymous.status).toBe(401);
      const other = await fetch(`${base}${PREFIX}${API}/authorizations/${created.authorizationId}/events`, { headers: { authorization: `Bearer ${KEY_OTHER}` } });
      expect(other.status).toBe(404);
      expect(((await other.json()) as { type: string }).type).toBe('authorization.not_found');
      expect(authorizer.eventStreamStats()).toEqual({ streams: 0, listeners: 0, timers: 0 });
    });
  });
}
