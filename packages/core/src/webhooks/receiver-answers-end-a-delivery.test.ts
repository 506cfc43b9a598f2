// What a receiver answers decides whether a webhook is sent again: any 2xx is delivered (however
// large the body it writes), a redirect is final (never followed, so it would answer the same).
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthorizerEvent } from '../events/authorizer-event.js';
import { WebhookDeliveries } from './webhook-deliveries.js';
import { KEY, localReceiver, message, settings, type ReceiverAnswer } from './__fixtures__/local-receiver.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function deliverOnce(answer: ReceiverAnswer) {
  const hooks = await localReceiver(() => answer);
  cleanups.push(() => hooks.close());
  const events: AuthorizerEvent[] = [];
  const deliveries = new WebhookDeliveries(settings({ maxAttempts: 8, initialBackoffMs: 10, maxBackoffMs: 20 }), { now: () => Date.now() }, {}, (event) => void events.push(event));
  cleanups.push(() => deliveries.close());
  deliveries.enqueue(message('msg_one'), { instanceId: 'main', authorizationId: 'one', url: hooks.url, key: KEY });
  await expect.poll(() => events.find((e) => e.type === 'webhook.delivered' || e.type === 'webhook.gave_up'), { timeout: 5_000 }).toBeDefined();
  return { hooks, events: events.map((e) => e as Extract<AuthorizerEvent, { webhookId: string }>), deliveries };
}

describe('webhook delivery: what the receiver answers', () => {
  it('counts a 2xx with a body past the 64 KiB cap as delivered, once (declared or streamed)', async () => {
    const big = Buffer.alloc(512 * 1024, 'x');
    for (const headers of [{ 'content-length': String(big.length) }, {}] as Record<string, string>[]) {
      const { hooks, events, deliveries } = await deliverOnce({ status: 200, body: big, headers });
      expect(events.map((e) => [e.type, e.attempt, e.httpStatus])).toEqual([['webhook.delivered', 1, 200]]);
      expect(hooks.ids).toEqual(['msg_one']);
      expect(deliveries.stats()).toEqual({ queued: 0, inFlight: 0, timers: 0 });
    }
  });

  it('gives up at once on a redirect, without following it', async () => {
    for (const status of [301, 302, 307, 308]) {
      const { hooks, events } = await deliverOnce({ status, headers: { location: 'http://127.0.0.1:9/elsewhere' } });
      expect(events.map((e) => [e.type, e.attempt, e.code])).toEqual([['webhook.gave_up', 1, 'outbound.redirect']]);
      expect(hooks.ids).toEqual(['msg_one']);
    }
  });

  it('still retries a 5xx', async () => {
    const { events } = await deliverOnce({ status: 503 });
    await expect.poll(() => events.length).toBeGreaterThan(0);
    expect(events[0]).toMatchObject({ type: 'webhook.failed', attempt: 1, httpStatus: 503 });
  });
});
