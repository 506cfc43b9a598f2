// The relying party relays the authorizer's event streams, which every visitor shares (the
// authorizer serves a bounded number per process): one relay per authorization and a few per
// session, and one client address holds a bounded share of the sessions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDemo, startDemo } from '../demo.mjs';
import { type DemoClient, type DemoStream, demoClient } from './__fixtures__/demo-client.js';

let demo: RunningDemo;
beforeAll(async () => {
  demo = await startDemo({ port: 0, host: '127.0.0.1', env: {} });
});
afterAll(() => demo?.close());

async function create(call: DemoClient): Promise<string> {
  const created = await call('/demo/authorizations', { ask: 'pid' });
  expect(created.status).toBe(201);
  return created.body.authorizationId;
}

describe('one visitor cannot hold every event stream', () => {
  it('a new relay for the same authorization ends the previous one', async () => {
    const call = demoClient(demo.origin);
    const id = await create(call);
    const streams: DemoStream[] = [];
    for (let i = 0; i < 10; i++) {
      const stream = await call.stream(`/demo/authorizations/${id}/events`);
      expect(stream.status).toBe(200);
      streams.push(stream);
      await expect.poll(() => demo.eventStreamStats().streams).toBe(1);
    }
    // Every relay but the last was ended by the server, the last one still streams.
    await Promise.all(streams.slice(0, -1).map((s) => s.ended));
    await expect.poll(() => streams.at(-1)!.text()).toContain('event: status\ndata: {"status":"created"}');
    streams.at(-1)!.close();
    await expect.poll(() => demo.eventStreamStats()).toEqual({ streams: 0, listeners: 0, timers: 0 });
  });

  it('a session follows at most 4 authorizations live; the next is a 429 and the others keep streaming', async () => {
    const call = demoClient(demo.origin);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await create(call));
    const open: DemoStream[] = [];
    for (const id of ids.slice(0, 4)) {
      const stream = await call.stream(`/demo/authorizations/${id}/events`);
      expect(stream.status).toBe(200);
      open.push(stream);
    }
    await expect.poll(() => demo.eventStreamStats().streams).toBe(4);
    for (const id of ids.slice(4)) {
      const refused = await call(`/demo/authorizations/${id}/events`);
      expect(refused).toMatchObject({ status: 429, body: { message: expect.stringContaining('polling') } });
    }
    expect(demo.eventStreamStats().streams).toBe(4);
    // Polling still answers for the refused ones.
    expect(await call(`/demo/authorizations/${ids[5]}/status`)).toMatchObject({ status: 200, body: { status: 'created' } });
    // Another session is not held back by this one.
    const other = demoClient(demo.origin);
    const otherId = await create(other);
    const theirs = await other.stream(`/demo/authorizations/${otherId}/events`);
    expect(theirs.status).toBe(200);
    await expect.poll(() => demo.eventStreamStats().streams).toBe(5);
    // A page that goes away frees its slot.
    open[0]!.close();
    await expect.poll(() => demo.eventStreamStats().streams).toBe(4);
    const freed = await call.stream(`/demo/authorizations/${ids[4]}/events`);
    expect(freed.status).toBe(200);
    for (const stream of [...open, theirs, freed]) stream.close();
    await expect.poll(() => demo.eventStreamStats()).toEqual({ streams: 0, listeners: 0, timers: 0 });
  });

  it('one client address holds at most 20 sessions: its oldest goes first (and its relays with it), other clients keep theirs', async () => {
    const bystander = demoClient(demo.origin, { localAddress: '127.0.0.2' });
    const bystanderId = await create(bystander);

    const first = demoClient(demo.origin, { localAddress: '127.0.0.3' });
    const firstId = await create(first);
    const held = await first.stream(`/demo/authorizations/${firstId}/events`);
    expect(held.status).toBe(200);
    await expect.poll(() => demo.eventStreamStats().streams).toBe(1);
    const rest = [];
    for (let i = 0; i < 20; i++) {
      const session = demoClient(demo.origin, { localAddress: '127.0.0.3' });
      rest.push({ session, id: await create(session) });
    }
    // The 21st session from 127.0.0.3 pushed out its own first one, whose relay ended with it.
    expect((await first(`/demo/authorizations/${firstId}/status`)).status).toBe(404);
    await held.ended;
    await expect.poll(() => demo.eventStreamStats().streams).toBe(0);
    expect((await rest[0]!.session(`/demo/authorizations/${rest[0]!.id}/status`)).status).toBe(200);
    expect((await bystander(`/demo/authorizations/${bystanderId}/status`)).status).toBe(200);
  });
});
