// One relying party's receivers that never answer, plus a flood of its status changes, must
// neither push another instance's webhook out of the queue nor keep it waiting behind the flood.
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthorizerEvent } from '../events/authorizer-event.js';
import { WebhookDeliveries } from './webhook-deliveries.js';
import { KEY, localReceiver, message, settings, type LocalReceiver } from './__fixtures__/local-receiver.js';

const clock = { now: () => Date.now() };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(answer: Parameters<typeof localReceiver>[0]): Promise<LocalReceiver> {
  const r = await localReceiver(answer);
  cleanups.push(() => r.close());
  return r;
}

function queue(overrides: Parameters<typeof settings>[0]) {
  const events: AuthorizerEvent[] = [];
  const deliveries = new WebhookDeliveries(settings(overrides), clock, {}, (event) => void events.push(event));
  cleanups.push(() => deliveries.close());
  const send = (instanceId: string, authorizationId: string, url: string) => deliveries.enqueue(message(`msg_${authorizationId}`), { instanceId, authorizationId, url, key: KEY });
  const of = (instanceId: string, type: string) => events.filter((e) => e.type === type && e.instanceId === instanceId) as Extract<AuthorizerEvent, { webhookId: string }>[];
  return { deliveries, events, send, of };
}

describe('webhook queue fairness across instances', () => {
  it("keeps a victim's delivery through a hostile instance's tarpit and flood, and starts it after at most one hostile attempt ends", async () => {
    const tarpit = await receiver(() => 'hang');
    const victimHooks = await receiver(() => ({ status: 204 }));
    const { deliveries, events, send, of } = queue({ maxQueued: 6, maxConcurrent: 2, timeoutMs: 1_000 });
    for (let i = 0; i < 5; i++) send('hostile', `h${i}`, tarpit.url);
    // Both slots are held by requests the tarpit never answers.
    await expect.poll(() => tarpit.ids.length).toBe(2);
    send('victim', 'v0', victimHooks.url);
    // The flood that follows fills the queue again and again.
    for (let i = 5; i < 15; i++) send('hostile', `h${i}`, tarpit.url);
    expect(deliveries.stats().queued).toBe(6);

    await expect.poll(() => of('victim', 'webhook.delivered').length, { timeout: 5_000 }).toBe(1);
    expect(of('victim', 'webhook.dropped')).toEqual([]);
    expect(of('victim', 'webhook.delivered')[0]).toMatchObject({ authorizationId: 'v0', attempt: 1, httpStatus: 204 });
    expect(victimHooks.ids).toEqual(['msg_v0']);
    // It waited for a tarpit attempt in flight to time out, not for the hostile backlog behind them.
    const deliveredAt = events.findIndex((e) => e.type === 'webhook.delivered');
    const hostileEndedBefore = events.slice(0, deliveredAt).filter((e) => e.type === 'webhook.gave_up' && e.instanceId === 'hostile');
    expect(hostileEndedBefore.length).toBeGreaterThanOrEqual(1);
    expect(hostileEndedBefore.length).toBeLessThanOrEqual(2);
    // Every drop the flood caused was the hostile instance's own.
    expect(of('hostile', 'webhook.dropped').length).toBe(10);
  });

  it('gives one instance at most ceil(maxConcurrent / 2) requests in flight while another instance has one ready', async () => {
    const tarpit = await receiver(() => 'hang');
    const victimHooks = await receiver(() => 'hang');
    const { send } = queue({ maxQueued: 50, maxConcurrent: 4, timeoutMs: 1_000 });
    // Alone, the hostile instance takes every slot.
    for (let i = 0; i < 4; i++) send('hostile', `h${i}`, tarpit.url);
    await expect.poll(() => tarpit.ids.length).toBe(4);
    send('victim', 'v0', victimHooks.url);
    send('victim', 'v1', victimHooks.url);
    send('victim', 'v2', victimHooks.url);
    for (let i = 4; i < 10; i++) send('hostile', `h${i}`, tarpit.url);
    // As the four time out, the slots are shared: two each (not the hostile backlog first, nor three for the victim).
    await expect.poll(() => [victimHooks.ids.length, tarpit.ids.length], { timeout: 5_000 }).toEqual([2, 6]);
  });

  it('with a single slot, alternates between instances instead of serving the tarpit again', async () => {
    const tarpit = await receiver(() => 'hang');
    const victimHooks = await receiver(() => ({ status: 204 }));
    const { send, of } = queue({ maxQueued: 50, maxConcurrent: 1, timeoutMs: 500 });
    for (let i = 0; i < 5; i++) send('hostile', `h${i}`, tarpit.url);
    await expect.poll(() => tarpit.ids.length).toBe(1);
    send('victim', 'v0', victimHooks.url);
    await expect.poll(() => of('victim', 'webhook.delivered').length, { timeout: 5_000 }).toBe(1);
    // One tarpit attempt ended before the victim's went out, not the whole backlog.
    expect(of('hostile', 'webhook.gave_up').length).toBe(1);
  });

  it('lets one instance alone use every slot', async () => {
    const slow = await receiver(() => 'hang');
    const { deliveries, send } = queue({ maxQueued: 50, maxConcurrent: 4, timeoutMs: 60_000 });
    for (let i = 0; i < 6; i++) send('only', `o${i}`, slow.url);
    await expect.poll(() => slow.ids.length).toBe(4);
    expect(deliveries.stats()).toMatchObject({ queued: 6, inFlight: 4 });
  });

  it('drops the oldest waiting delivery of the instance holding the most, never one of an instance under its share', async () => {
    const hooks = await receiver(() => 'hang');
    const { send, of } = queue({ maxQueued: 4, maxConcurrent: 1, timeoutMs: 60_000 });
    send('a', 'a0', hooks.url); // in flight
    send('b', 'b0', hooks.url);
    send('a', 'a1', hooks.url);
    send('a', 'a2', hooks.url);
    // Full: a holds 3, b holds 1. Whoever sends next, a loses its oldest waiting one.
    send('b', 'b1', hooks.url);
    send('a', 'a3', hooks.url);
    expect([...of('a', 'webhook.dropped'), ...of('b', 'webhook.dropped')].map((e) => e.authorizationId)).toEqual(['a1', 'a2']);
    // Now a and b hold 2 each: on a tie the sender's own oldest goes.
    send('b', 'b2', hooks.url);
    expect(of('b', 'webhook.dropped').map((e) => e.authorizationId)).toEqual(['b0']);
  });

  it('holds a full queue of the largest allowed size, evicting in place', async () => {
    const hooks = await receiver(() => 'hang');
    const { deliveries, send, of } = queue({ maxQueued: 100_000, maxConcurrent: 4, timeoutMs: 60_000 });
    // 150 000 changes of 50 000 authorizations (3 each, so most wait behind an earlier change), then more to evict.
    for (let i = 0; i < 150_000; i++) send(i % 2 === 0 ? 'a' : 'b', `x${i % 50_000}-${i % 2}`, hooks.url);
    expect(deliveries.stats()).toMatchObject({ queued: 100_000, inFlight: 4 });
    expect(of('a', 'webhook.dropped').length + of('b', 'webhook.dropped').length).toBe(50_000);
  });
});
