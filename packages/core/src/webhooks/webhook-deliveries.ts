import { randomInt } from 'node:crypto';
import type { Clock } from '../config/authorizer-options.js';
import { webhookSignature } from '../crypto/webhook-signature.js';
import type { AuthorizerEvent, WebhookDeliveryEvent, WebhookEventType } from '../events/authorizer-event.js';
import { describeError } from '../events/logger.js';
import type { EventLog } from '../events/log-events.js';
import { OutboundFetchError } from '../outbound/outbound-fetch-error.js';
import { checkOutboundUrl, outboundPost, type OutboundFetchPolicy } from '../outbound/outbound-fetch-policy.js';
import type { WebhookMessage } from './webhook-message.js';

/** Limits and timings of webhook delivery (validated with the options; times in ms). */
export interface WebhookDeliverySettings {
  maxQueued: number;
  maxConcurrent: number;
  maxAttempts: number;
  timeoutMs: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  outbound: OutboundFetchPolicy;
}

/** A receiver's answer body is read and discarded; this bounds how much. */
const MAX_RESPONSE_BYTES = 64 * 1024;

interface Delivery {
  message: WebhookMessage;
  instanceId: string;
  authorizationId: string;
  url: string;
  key: Uint8Array;
  /** Attempts started so far. */
  attempts: number;
  /** Epoch ms (the real clock) before which the next attempt must not start. */
  readyAt: number;
  /** Set while an attempt is in flight. */
  inFlight?: AbortController;
}

/**
 * The per-process webhook queue. `enqueue` never waits and never throws: the decision that caused
 * the status change has already been stored and answered. Bounded in total: at most `maxQueued`
 * deliveries held (the oldest one not in flight is dropped for a new one), `maxConcurrent`
 * requests in flight, `maxAttempts` attempts of `timeoutMs` each, one timer. Deliveries of one
 * authorization go out one at a time in the order of its status changes: a later change waits
 * until the earlier one was delivered or given up.
 */
export class WebhookDeliveries {
  private readonly queue: Delivery[] = [];
  private inFlight = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Infinity;
  private closed = false;
  /** Attempts in flight, so that close() can wait until their sockets are gone. */
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly settings: WebhookDeliverySettings,
    private readonly clock: Clock,
    private readonly log: EventLog,
    private readonly emit: (event: AuthorizerEvent) => void,
  ) {}

  /** True when `url` passes the policy's checks that need no network (scheme, port, host form). */
  acceptsUrl(url: string): boolean {
    try {
      checkOutboundUrl(url, this.settings.outbound);
      return true;
    } catch {
      return false;
    }
  }

  /** Queue one status change for `url`. */
  enqueue(message: WebhookMessage, target: { instanceId: string; authorizationId: string; url: string; key: Uint8Array }): void {
    if (this.closed) return;
    const delivery: Delivery = { message, ...target, attempts: 0, readyAt: 0 };
    if (this.queue.length >= this.settings.maxQueued) {
      const oldest = this.queue.findIndex((d) => !d.inFlight);
      if (oldest === -1) return this.drop(delivery, 'the webhook queue is full of deliveries in flight');
      const [dropped] = this.queue.splice(oldest, 1);
      this.drop(dropped!, 'the webhook queue is full; the oldest delivery was dropped');
    }
    this.queue.push(delivery);
    this.pump();
  }

  /** Deliveries held (in flight included), requests in flight, timers held. */
  stats(): { queued: number; inFlight: number; timers: number } {
    return { queued: this.queue.length, inFlight: this.inFlight, timers: this.timer ? 1 : 0 };
  }

  /**
   * Stop: no new attempts, in-flight requests aborted, held deliveries dropped (with an event
   * each), the timer cleared. Resolves once the aborted requests have settled.
   */
  async close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.clearTimer();
      for (const delivery of this.queue.splice(0)) {
        delivery.inFlight?.abort(new Error('the authorizer is closing'));
        this.drop(delivery, 'the authorizer closed before the webhook was delivered');
      }
    }
    await Promise.allSettled([...this.running]);
  }

  /** Start every attempt that may start now; arm the timer for the next one that must wait. */
  private pump(): void {
    if (this.closed) return;
    const now = Date.now();
    const seen = new Set<string>();
    let nextAt = Infinity;
    for (const delivery of this.queue) {
      const chain = `${delivery.instanceId}\n${delivery.authorizationId}`;
      if (seen.has(chain)) continue; // an earlier change of this authorization goes first
      seen.add(chain);
      if (delivery.inFlight) continue;
      if (delivery.readyAt > now) {
        nextAt = Math.min(nextAt, delivery.readyAt);
        continue;
      }
      if (this.inFlight >= this.settings.maxConcurrent) break; // a finishing attempt pumps again
      const running = this.attempt(delivery).finally(() => this.running.delete(running));
      this.running.add(running);
    }
    this.armTimer(nextAt);
  }

  private armTimer(at: number): void {
    if (at === this.timerAt) return;
    this.clearTimer();
    if (at === Infinity) return;
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.pump();
    }, Math.max(0, at - Date.now()));
    // Pending deliveries do not keep a process alive on their own (close() is the orderly stop).
    this.timer.unref?.();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  private async attempt(delivery: Delivery): Promise<void> {
    const controller = new AbortController();
    delivery.inFlight = controller;
    delivery.attempts++;
    this.inFlight++;
    const { message } = delivery;
    const timestamp = Math.floor(this.clock.now() / 1000);
    let outcome: { status: number } | { error: unknown };
    try {
      const response = await outboundPost(
        delivery.url,
        {
          contentType: 'application/json',
          headers: {
            'webhook-id': message.id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': webhookSignature(delivery.key, message.id, timestamp, message.body),
            'user-agent': 'vp-authorizer-webhooks',
          },
          body: message.body,
          timeoutMs: this.settings.timeoutMs,
          maxBytes: MAX_RESPONSE_BYTES,
          signal: controller.signal,
        },
        this.settings.outbound,
      );
      outcome = { status: response.status };
    } catch (error) {
      outcome = { error };
    } finally {
      this.inFlight--;
      delivery.inFlight = undefined;
    }
    if (this.closed) return; // close() already dropped it
    this.settle(delivery, outcome);
    this.pump();
  }

  private settle(delivery: Delivery, outcome: { status: number } | { error: unknown }): void {
    if ('status' in outcome) {
      this.remove(delivery);
      this.report(delivery, 'webhook.delivered', { httpStatus: outcome.status });
      this.log['webhook.delivered']?.({ ...this.fields(delivery), httpStatus: outcome.status });
      return;
    }
    const error = outcome.error;
    const failure = error instanceof OutboundFetchError ? error : undefined;
    const detail = { code: failure?.code ?? 'outbound.network', ...(failure?.status !== undefined ? { httpStatus: failure.status } : {}) };
    // 410 Gone: the receiver asks us to stop. A refused destination stays refused: retrying cannot help.
    const final = failure?.status === 410 || failure?.reason === 'destination' || delivery.attempts >= this.settings.maxAttempts;
    if (final) {
      this.remove(delivery);
      this.report(delivery, 'webhook.gave_up', detail);
      this.log['webhook.gave_up']?.({ ...this.fields(delivery), code: detail.code, httpStatus: failure?.status, err: failure ? undefined : describeError(error) });
      return;
    }
    delivery.readyAt = Date.now() + this.backoff(delivery.attempts);
    this.report(delivery, 'webhook.failed', detail);
    this.log['webhook.retrying']?.({ ...this.fields(delivery), code: detail.code, httpStatus: failure?.status });
  }

  /** Exponential backoff with full jitter in its upper half: base·2^(n−1), capped, times [0.5, 1). */
  private backoff(attempts: number): number {
    const { initialBackoffMs, maxBackoffMs } = this.settings;
    const ceiling = Math.min(maxBackoffMs, initialBackoffMs * 2 ** Math.min(attempts - 1, 30));
    return Math.ceil(ceiling / 2 + randomInt(0, Math.max(1, Math.floor(ceiling / 2))));
  }

  private remove(delivery: Delivery): void {
    const index = this.queue.indexOf(delivery);
    if (index !== -1) this.queue.splice(index, 1);
  }

  private drop(delivery: Delivery, reason: string): void {
    this.report(delivery, 'webhook.dropped', {});
    this.log['webhook.dropped']?.({ ...this.fields(delivery), reason });
  }

  private report(delivery: Delivery, type: WebhookEventType, extra: Pick<WebhookDeliveryEvent, 'httpStatus' | 'code'>): void {
    this.emit({
      type,
      instanceId: delivery.instanceId,
      authorizationId: delivery.authorizationId,
      webhookId: delivery.message.id,
      eventType: delivery.message.eventType,
      attempt: delivery.attempts,
      ...extra,
      at: this.clock.now(),
    });
  }

  /** What is safe to log: ids and outcome, never the URL (it may carry a token) nor the key. */
  private fields(delivery: Delivery) {
    return { webhookId: delivery.message.id, instanceId: delivery.instanceId, authorizationId: delivery.authorizationId, eventType: delivery.message.eventType, attempt: delivery.attempts };
  }
}
