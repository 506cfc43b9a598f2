// setTimeout takes at most 2^31 - 1 ms; a longer delay fires after 1 ms, which would turn a long
// backoff into a busy loop. The options bound every delay, and the queue clamps its own timer.
import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authorizerOptionsSchema } from '../config/authorizer-options.js';
import type { AuthorizerEvent } from '../events/authorizer-event.js';
import { WebhookDeliveries } from './webhook-deliveries.js';
import { KEY, localReceiver, message, settings } from './__fixtures__/local-receiver.js';

const MAX_TIMER_MS = 2 ** 31 - 1;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('webhook timers', () => {
  it('refuses delays past 24 h, a timeout past 2 min and a queue past 100 000 in the options', () => {
    const delivery = authorizerOptionsSchema.entries.webhookDelivery;
    for (const bad of [{ initialBackoffMs: 2 ** 31 }, { maxBackoffMs: 86_400_001 }, { timeoutMs: 120_001 }, { maxQueued: 100_001 }]) {
      const result = v.safeParse(delivery, bad);
      expect(result.success).toBe(false);
      expect(v.flatten(result.issues!).nested).toHaveProperty(Object.keys(bad)[0]!);
    }
    expect(v.safeParse(delivery, { initialBackoffMs: 86_400_000, maxBackoffMs: 86_400_000, timeoutMs: 120_000, maxQueued: 100_000 }).success).toBe(true);
    for (const bad of [{ heartbeatMs: 2 ** 31 }, { pollMs: 2 ** 31 }]) expect(v.safeParse(authorizerOptionsSchema.entries.eventStreams, bad).success).toBe(false);
    expect(v.safeParse(authorizerOptionsSchema.entries.sweepIntervalMs, 2 ** 31).success).toBe(false);
  });

  it('arms its retry timer within range even for a backoff past it, and does not retry early', async () => {
    const hooks = await localReceiver(() => ({ status: 503 }));
    cleanups.push(() => hooks.close());
    const delays: number[] = [];
    const real = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number, ...rest: unknown[]) => {
      delays.push(ms ?? 0);
      return real(fn, ms, ...rest);
    }) as typeof setTimeout);
    const events: AuthorizerEvent[] = [];
    // The jitter keeps at least half of the backoff: every retry delay is past the timer range.
    const huge = 8_000_000_000;
    const deliveries = new WebhookDeliveries(settings({ maxAttempts: 3, initialBackoffMs: huge, maxBackoffMs: huge }), { now: () => Date.now() }, {}, (event) => void events.push(event));
    cleanups.push(() => deliveries.close());
    deliveries.enqueue(message('msg_one'), { instanceId: 'main', authorizationId: 'one', url: hooks.url, key: KEY });
    await expect.poll(() => events.map((e) => e.type)).toEqual(['webhook.failed']);
    expect(deliveries.stats()).toEqual({ queued: 1, inFlight: 0, timers: 1 });
    const retryDelay = delays.filter((ms) => ms > 1_000_000);
    expect(retryDelay).toEqual([MAX_TIMER_MS]);
    expect(hooks.ids).toEqual(['msg_one']);
  });
});
