import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreResponse } from '@vp-authorizer/core/http';
import { API_KEY, DCQL_SD_JWT, OTHER_KEY, createDcqlAuthorization, encryptResponse, fetchRequestObject, makeSdJwt, startAuthorizer } from './__fixtures__/test-authorizer.js';

// The stream in process, through authorizer.handle(): the adapters' tests cover it over HTTP.
let env: Awaited<ReturnType<typeof startAuthorizer>>;
afterEach(() => env?.close());

const eventsRequest = (id: string, method = 'GET', key = API_KEY) => ({
  method,
  path: `/openid4/vp/v1_0/authorizations/${id}/events`,
  query: new URLSearchParams(),
  headers: new Headers({ authorization: `Bearer ${key}` }),
});

/** Every status event of a stream until it ends (heartbeats skipped). */
async function statusesOf(response: CoreResponse): Promise<unknown[]> {
  const statuses: unknown[] = [];
  for await (const chunk of response.stream!) if (chunk.startsWith('event: status')) statuses.push(JSON.parse(chunk.split('\ndata: ')[1]!));
  return statuses;
}

describe('authorization event stream', () => {
  it('sends every change of a wallet flow in order: created, pending, processing, authorized, then ends', async () => {
    env = await startAuthorizer();
    const { json } = await createDcqlAuthorization(env.api);
    const response = await env.authorizer.handle(eventsRequest(json.authorizationId!));
    expect(response.status).toBe(200);
    const statuses = statusesOf(response);

    const ro = await fetchRequestObject(json.authorizeUrl!);
    const { state } = decodeJwt(ro.jwt) as { state: string; response_uri: string };
    const { response_uri } = decodeJwt(ro.jwt) as { response_uri: string };
    const jwe = await encryptResponse(ro.jwt, { vp_token: { pid: [await makeSdJwt()] }, state });
    const post = await fetch(response_uri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ response: jwe }) });
    expect(post.status).toBe(200);

    expect(await statuses).toEqual([{ status: 'created' }, { status: 'pending' }, { status: 'pending', processing: true }, { status: 'authorized' }]);
    expect(env.authorizer.eventStreamStats()).toEqual({ streams: 0, listeners: 0, timers: 0 });
  });

  it('refuses a stream over the per-process cap with 503 and Retry-After, and takes one again once a slot is free', async () => {
    env = await startAuthorizer({ eventStreams: { maxStreams: 1 } });
    const { json } = await createDcqlAuthorization(env.api);
    const first = await env.authorizer.handle(eventsRequest(json.authorizationId!));
    expect(first.status).toBe(200);

    const refused = await env.authorizer.handle(eventsRequest(json.authorizationId!));
    expect(refused.status).toBe(503);
    expect(refused.stream).toBeUndefined();
    expect(refused.headers).toContainEqual(['retry-after', '5']);
    expect(JSON.parse(refused.body!)).toMatchObject({ type: 'events.too_many_streams', status: 503 });

    first.stream!.cancel();
    expect(env.authorizer.eventStreamStats()).toEqual({ streams: 0, listeners: 0, timers: 0 });
    const again = await env.authorizer.handle(eventsRequest(json.authorizationId!));
    expect(again.status).toBe(200);
    again.stream!.cancel();
  });

  it('keeps slots for other instances: one instance gets half the process cap by default, or maxStreamsPerInstance', async () => {
    const open = async (key: string) => {
      const res = await env!.api('/openid4/vp/v1_0/authorizations', { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: DCQL_SD_JWT } }) });
      expect(res.status).toBe(201);
      const { authorizationId } = (await res.json()) as { authorizationId: string };
      return env!.authorizer.handle(eventsRequest(authorizationId, 'GET', key));
    };
    env = await startAuthorizer({ eventStreams: { maxStreams: 4 } });
    const held = [await open(API_KEY), await open(API_KEY)];
    expect(held.map((r) => r.status)).toEqual([200, 200]);
    const refused = await open(API_KEY);
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body!)).toMatchObject({ type: 'events.too_many_streams' });
    // The other instance still gets its share although the first keeps asking.
    const others = [await open(OTHER_KEY), await open(OTHER_KEY)];
    expect(others.map((r) => r.status)).toEqual([200, 200]);
    for (const r of [...held, ...others]) r.stream!.cancel();
    expect(env.authorizer.eventStreamStats().streams).toBe(0);
    await env.close();

    env = await startAuthorizer({ eventStreams: { maxStreams: 4, maxStreamsPerInstance: 3 } });
    const three = [await open(API_KEY), await open(API_KEY), await open(API_KEY)];
    expect(three.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await open(API_KEY)).status).toBe(503);
    for (const r of three) r.stream!.cancel();
  });

  it('holds nothing for an unknown authorization (404) or a HEAD request', async () => {
    env = await startAuthorizer();
    const unknown = await env.authorizer.handle(eventsRequest('A'.repeat(22)));
    expect(unknown.status).toBe(404);
    const { json } = await createDcqlAuthorization(env.api);
    const head = await env.authorizer.handle(eventsRequest(json.authorizationId!, 'HEAD'));
    expect(head.status).toBe(200);
    expect(head.stream).toBeUndefined();
    expect(env.authorizer.eventStreamStats()).toEqual({ streams: 0, listeners: 0, timers: 0 });
  });

  it('ends open streams when the authorizer closes', async () => {
    env = await startAuthorizer();
    const { json } = await createDcqlAuthorization(env.api);
    const response = await env.authorizer.handle(eventsRequest(json.authorizationId!));
    const statuses = statusesOf(response);
    expect(env.authorizer.eventStreamStats()).toMatchObject({ streams: 1, listeners: 1, timers: 3 });
    await env.authorizer.close();
    expect(await statuses).toEqual([{ status: 'created' }]);
    expect(env.authorizer.eventStreamStats()).toEqual({ streams: 0, listeners: 0, timers: 0 });
  });

  it('is pulled: heartbeats between statuses, a waiting status before a due heartbeat, done once cancelled', async () => {
    env = await startAuthorizer({ eventStreams: { heartbeatMs: 100 } });
    const { json } = await createDcqlAuthorization(env.api);
    const response = await env.authorizer.handle(eventsRequest(json.authorizationId!));
    const iterator = response.stream![Symbol.asyncIterator]();
    expect((await iterator.next()).value).toContain('"created"');
    // Nothing changes: the next chunk is a heartbeat (a due heartbeat is a flag, not a queue: unread ones never pile up).
    expect((await iterator.next()).value).toBe(': heartbeat\n\n');
    await fetchRequestObject(json.authorizeUrl!);
    expect((await iterator.next()).value).toContain('"pending"');
    response.stream!.cancel();
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });
});
