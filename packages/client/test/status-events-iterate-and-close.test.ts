// The event stream as an async iterator: it yields each status once, ends after a terminal status,
// ends quietly when its signal aborts or its loop breaks, and releases the authorizer's stream
// (its timers and listener) in every case. A stream cut before a terminal status is an error.
import { TEST_API_KEY, createTestWallet, listenOnLoopback, startPassThroughAuthorizer, type PassThroughAuthorizerServer } from '@vp-authorizer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthorizationStatus, type AuthorizerClient, UnexpectedResponseError, createAuthorizerClient } from '../src/index.js';
import { pidRequest } from './__fixtures__/verifying-authorizer.js';

let server: PassThroughAuthorizerServer;
let client: AuthorizerClient;

beforeAll(async () => {
  server = await startPassThroughAuthorizer();
  client = createAuthorizerClient({ baseUrl: server.base, apiKey: TEST_API_KEY });
});
afterAll(() => server?.close());

/** Until the authorizer holds `count` open streams (a stream is released a few turns after its client goes away). */
async function openStreams(count: number): Promise<void> {
  for (let i = 0; i < 200 && server.authorizer.eventStreamStats().streams !== count; i++) await new Promise((r) => setTimeout(r, 10));
  expect(server.authorizer.eventStreamStats()).toMatchObject({ streams: count });
}

describe('streamAuthorizationEvents', () => {
  it('yields the current status, then each change, and ends after the terminal one', async () => {
    const created = await client.createAuthorization(pidRequest());
    if (!('authorizeUrl' in created)) throw new Error('expected the redirect shape');
    const events = client.streamAuthorizationEvents(created.authorizationId)[Symbol.asyncIterator]();
    expect(await events.next()).toEqual({ done: false, value: { status: 'created' } });
    const wallet = await createTestWallet();
    const request = await wallet.receive(created.authorizeUrl);
    expect(await events.next()).toEqual({ done: false, value: { status: 'pending' } });
    // The holder declines: the wallet's error response ends the authorization.
    const declined = await wallet.submit({ responseMode: request.responseMode, responseUri: request.responseUri!, payload: {}, form: { error: 'access_denied', state: request.state! } });
    expect(declined.status).toBe(200);
    const rest: AuthorizationStatus[] = [];
    for (let next = await events.next(); !next.done; next = await events.next()) rest.push(next.value);
    expect(rest.at(-1)).toEqual({ status: 'rejected' });
    expect(rest.slice(0, -1).every((s) => s.status === 'pending')).toBe(true);
    await openStreams(0);
  });

  it('ends quietly when its signal aborts, and the authorizer releases the stream', async () => {
    const created = await client.createAuthorization(pidRequest());
    const controller = new AbortController();
    const seen: string[] = [];
    let sawFirst!: () => void;
    const first = new Promise<void>((resolve) => (sawFirst = resolve));
    const following = (async () => {
      for await (const status of client.streamAuthorizationEvents(created.authorizationId, { signal: controller.signal })) {
        seen.push(status.status);
        sawFirst();
      }
    })();
    await first;
    await openStreams(1);
    controller.abort();
    await expect(following).resolves.toBeUndefined();
    expect(seen).toEqual(['created']);
    await openStreams(0);
  });

  it('releases the stream when the loop breaks', async () => {
    const created = await client.createAuthorization(pidRequest());
    for await (const status of client.streamAuthorizationEvents(created.authorizationId)) {
      expect(status.status).toBe('created');
      break;
    }
    await openStreams(0);
  });

  it('opens nothing when its signal is already aborted', async () => {
    const created = await client.createAuthorization(pidRequest());
    const seen: unknown[] = [];
    for await (const status of client.streamAuthorizationEvents(created.authorizationId, { signal: AbortSignal.abort() })) seen.push(status);
    expect(seen).toEqual([]);
    expect(server.authorizer.eventStreamStats().streams).toBe(0);
  });

  it('throws UnexpectedResponseError when the stream ends before a terminal status', async () => {
    // What a proxy with an idle timeout does: one event, then the connection ends.
    const proxy = await listenOnLoopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('event: status\ndata: {"status":"pending"}\n\n');
    });
    try {
      const behindProxy = createAuthorizerClient({ baseUrl: `${proxy.origin}/authz`, apiKey: TEST_API_KEY });
      const seen: string[] = [];
      const error = await (async () => {
        for await (const status of behindProxy.streamAuthorizationEvents('any')) seen.push(status.status);
      })().catch((e: unknown) => e);
      expect(seen).toEqual(['pending']);
      expect(error).toBeInstanceOf(UnexpectedResponseError);
      expect(String((error as Error).message)).toContain('ended before a terminal status');
    } finally {
      await proxy.close();
    }
  });
});

