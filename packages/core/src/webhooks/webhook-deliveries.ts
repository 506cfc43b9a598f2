import { randomInt } from 'node:crypto';
import type { Clock } from '../config/authorizer-options.js';
import { webhookSignature } from '../crypto/webhook-signature.js';
import type { AuthorizerEvent, WebhookDeliveryEvent, WebhookEventType } from '../events/authorizer-event.js';
import { describeError } from '../events/logger.js';
import type { EventLog } from '../events/log-events.js';
import { OutboundFetchError } from '../outbound/outbound-fetch-error.js';
import { checkOutboundUrl, outboundPost, type OutboundFetchPolicy } from '../outbound/outbound-fetch-policy.js';
import { LinkedSet } from './linked-set.js';
import { ReadyAtHeap } from './ready-at-heap.js';
import type { WebhookMessage } from './webhook-message.js';
import type { OutboxDelivery, OutboxRef, WebhookOutbox } from '../model/webhook-outbox.js';

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

/**
 * The store's webhook outbox, when deliveries must outlive this process: every delivery is added
 * there (leased to `holder`) before it is settled, leases are renewed every third of `leaseMs`
 * while held, and deliveries whose holder stopped renewing are taken over.
 */
export interface DeliveryOutbox {
  store: WebhookOutbox;
  /** This authorizer's lease holder id (random). */
  holder: string;
  /** How long a lease holds without renewal, in ms. */
  leaseMs: number;
  /** The HMAC key of an instance's webhooks; undefined when this process does not configure them. */
  keyOf(instanceId: string): Uint8Array | undefined;
}

/** Where a delivery stands in the outbox: held by us, not in it (the store failed: delivered from memory only), refused. */
type Stored = 'held' | 'local' | 'full' | 'duplicate';

/** A receiver's answer body is read and discarded; this bounds how much. */
const MAX_RESPONSE_BYTES = 64 * 1024;

interface Delivery {
  message: WebhookMessage;
  instanceId: string;
  authorizationId: string;
  url: string;
  key: Uint8Array;
  /** instanceId + authorizationId: the deliveries of one authorization go out in order. */
  chain: string;
  /** The record version of the change (orders an authorization's deliveries in the outbox). */
  sequence: number;
  /** With an outbox: settles once the outbox has it (or refused it); an attempt waits for it. */
  stored?: Promise<Stored>;
  /** Set once `stored` settled 'held': renewed and removed under our lease. */
  held?: boolean;
  /** Attempts started so far. */
  attempts: number;
  /** Epoch ms (the real clock) before which the next attempt must not start. */
  readyAt: number;
  /** Set while an attempt is in flight. */
  inFlight?: AbortController;
  /** Set once it left the queue (delivered, given up, dropped): a stale entry of the retry heap skips it. */
  gone?: boolean;
}

/** What one instance holds in the queue. */
interface InstanceQueue {
  /** Every delivery held for this instance (waiting, retrying or in flight), oldest first. */
  held: LinkedSet<Delivery>;
  /** The first undelivered change of each of its authorizations, when it may start now; oldest first. */
  runnable: LinkedSet<Delivery>;
  inFlight: number;
  /** When it last started an attempt (a sequence number): ties go to the one served longest ago. */
  servedAt: number;
}

/** The longest delay setTimeout takes as given; a longer one fires after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The per-process webhook queue. `enqueue` never waits and never throws: the decision that caused
 * the status change has already been stored and answered. With an outbox (a store that implements
 * WebhookOutbox, passed to the authorizer), every delivery is also kept in the store, leased to
 * this process, until it is delivered or given up: if the process dies, another one takes it over
 * once the lease has run out (at least once, the same `webhook-id`). Bounded in total: at most `maxQueued`
 * deliveries held, `maxConcurrent` requests in flight, `maxAttempts` attempts of `timeoutMs` each,
 * one timer. Deliveries of one authorization go out one at a time in the order of its status
 * changes: a later change waits until the earlier one was delivered or given up.
 *
 * Fair across instances, so that one relying party (a receiver that never answers, a flood of
 * creates) cannot hold up or push out another's webhooks: when the queue is full, the delivery
 * dropped is the oldest not in flight of the instance holding the most (never one of an instance
 * holding less than another); while another instance has deliveries ready, an instance gets at most
 * ceil(maxConcurrent / 2) requests in flight, and a free slot goes to the instance with the fewest.
 * Every step costs O(instances + log queued): nothing scans the queue.
 */
export class WebhookDeliveries {
  private readonly instances = new Map<string, InstanceQueue>();
  /** Undelivered changes per authorization, in order: only the first may be attempted. */
  private readonly chains = new Map<string, Delivery[]>();
  /** Deliveries waiting for their backoff (stale entries of gone deliveries are skipped lazily). */
  private readonly retries = new ReadyAtHeap<Delivery>();
  private held = 0;
  private inFlight = 0;
  /** Attempts started so far (orders InstanceQueue.servedAt). */
  private starts = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Infinity;
  private closed = false;
  /** Attempts in flight, so that close() can wait until their sockets are gone. */
  private readonly running = new Set<Promise<void>>();
  /** With an outbox: what this process holds, by outbox key (renewal, and takeovers of our own). */
  private readonly outboxed = new Map<string, Delivery>();
  private leaseTimer: ReturnType<typeof setInterval> | undefined;
  /** The renewal and takeover of the lease timer; one at a time. */
  private leaseWork: Promise<void> | undefined;

  constructor(
    private readonly settings: WebhookDeliverySettings,
    private readonly clock: Clock,
    private readonly log: EventLog,
    private readonly emit: (event: AuthorizerEvent) => void,
    private readonly outbox?: DeliveryOutbox,
  ) {
    if (!outbox) return;
    // Renew what we hold and take over what a dead process held, every third of the lease.
    this.leaseTimer = setInterval(() => {
      this.leaseWork ??= this.tendLeases().finally(() => (this.leaseWork = undefined));
    }, Math.max(1, Math.floor(outbox.leaseMs / 3)));
    this.leaseTimer.unref?.();
  }

  /** True when `url` passes the policy's checks that need no network (scheme, port, host form). */
  acceptsUrl(url: string): boolean {
    try {
      checkOutboundUrl(url, this.settings.outbound);
      return true;
    } catch {
      return false;
    }
  }

  /** Queue one status change for `url` (`sequence`: the record version of the change). */
  enqueue(message: WebhookMessage, target: { instanceId: string; authorizationId: string; url: string; key: Uint8Array; sequence?: number }): void {
    if (this.closed) return;
    const delivery: Delivery = { message, ...target, sequence: target.sequence ?? 0, chain: `${target.instanceId}\n${target.authorizationId}`, attempts: 0, readyAt: 0 };
    const own = this.queueOf(target.instanceId);
    let eviction: Promise<unknown> | undefined;
    if (this.held >= this.settings.maxQueued) {
      const evicted = this.evictionCandidate(own);
      if (!evicted) return this.drop(delivery, 'the webhook queue is full of deliveries in flight');
      this.remove(evicted);
      eviction = this.release(evicted);
      this.drop(evicted, 'the webhook queue is full; the oldest delivery of the instance holding the most was dropped');
    }
    // The evicted delivery leaves the outbox first: its place counts against the instance's bound there.
    if (this.outbox) delivery.stored = (eviction ?? Promise.resolve()).then(() => this.store(delivery));
    this.hold(delivery, own);
  }

  /** Put a delivery into the local queue: behind the undelivered changes of its authorization. */
  private hold(delivery: Delivery, own: InstanceQueue): void {
    own.held.add(delivery);
    this.held++;
    const chain = this.chains.get(delivery.chain);
    if (chain) chain.push(delivery);
    else {
      this.chains.set(delivery.chain, [delivery]);
      own.runnable.add(delivery);
    }
    this.pump();
  }

  /** Add a new delivery to the outbox, leased to us. A store that fails leaves it to this process's memory. */
  private async store(delivery: Delivery): Promise<Stored> {
    const outbox = this.outbox!;
    try {
      const outcome = await outbox.store.addWebhook(toOutbox(delivery), { holder: outbox.holder, until: Date.now() + outbox.leaseMs }, this.settings.maxQueued);
      if (outcome === 'queued' && !delivery.gone && !this.closed) {
        delivery.held = true;
        this.outboxed.set(outboxKey(refOf(delivery)), delivery);
      }
      return outcome === 'queued' ? 'held' : outcome;
    } catch (error) {
      this.log['webhook.outbox_failed']?.({ step: 'add', err: describeError(error) });
      return 'local';
    }
  }

  /** Take it out of the outbox (delivered, given up, dropped); a failure leaves it to be taken over and sent again (at least once). */
  private release(delivery: Delivery): Promise<unknown> | undefined {
    if (!this.outbox || !delivery.stored) return undefined;
    return delivery.stored.then(async (stored) => {
      if (stored !== 'held') return;
      this.outboxed.delete(outboxKey(refOf(delivery)));
      await this.outbox!.store.removeWebhook(refOf(delivery), this.outbox!.holder).catch(() => undefined);
    });
  }

  /** Renew our leases; take over deliveries whose holder stopped renewing, as far as the local bound allows. */
  private async tendLeases(): Promise<void> {
    const outbox = this.outbox!;
    const lease = () => ({ holder: outbox.holder, until: Date.now() + outbox.leaseMs });
    let step: 'renew' | 'take_over' = 'renew';
    try {
      const refs = [...this.outboxed.values()].map(refOf);
      if (refs.length > 0) await outbox.store.renewWebhooks(refs, lease());
      const room = this.settings.maxQueued - this.held;
      if (this.closed || room <= 0) return;
      step = 'take_over';
      const taken = await outbox.store.takeOverWebhooks(Date.now(), lease(), room, (error) => this.log['webhook.outbox_failed']?.({ step: 'take_over', err: describeError(error) }));
      // An authorization's changes go out in the order they were made.
      for (const entry of taken.sort((a, b) => a.sequence - b.sequence)) this.adopt(entry);
    } catch (error) {
      // Retried at the next tick; a lease that lapses meanwhile is taken over (at least once).
      this.log['webhook.outbox_failed']?.({ step, err: describeError(error) });
    }
  }

  /** A delivery taken over from the outbox joins the local queue with the attempts already made. */
  private adopt(entry: OutboxDelivery): void {
    const outbox = this.outbox!;
    if (this.outboxed.has(outboxKey(entry))) return; // ours already (our renewal had lapsed)
    const key = outbox.keyOf(entry.instanceId);
    const delivery: Delivery = {
      message: { id: entry.id, eventType: entry.eventType as WebhookMessage['eventType'], body: new TextEncoder().encode(entry.body) },
      instanceId: entry.instanceId,
      authorizationId: entry.authorizationId,
      url: entry.url,
      key: key ?? new Uint8Array(),
      chain: `${entry.instanceId}\n${entry.authorizationId}`,
      sequence: entry.sequence,
      attempts: entry.attempts,
      readyAt: 0,
      stored: Promise.resolve<Stored>('held'),
      held: true,
    };
    if (key === undefined) {
      // Not ours to sign: an instance this process does not configure with webhooks.
      void outbox.store.removeWebhook(entry, outbox.holder).catch(() => undefined);
      return this.drop(delivery, 'taken over from the outbox for an instance without webhooks in this process');
    }
    if (this.closed) {
      void outbox.store.renewWebhooks([entry], { holder: outbox.holder, until: 0 }).catch(() => undefined);
      return;
    }
    this.outboxed.set(outboxKey(entry), delivery);
    this.log['webhook.taken_over']?.({ ...this.fields(delivery) });
    this.hold(delivery, this.queueOf(entry.instanceId));
  }

  /** Deliveries held (in flight included), requests in flight, timers held. */
  stats(): { queued: number; inFlight: number; timers: number } {
    return { queued: this.held, inFlight: this.inFlight, timers: this.timer ? 1 : 0 };
  }

  /**
   * Stop: no new attempts, in-flight requests aborted, the timers cleared. Held deliveries are
   * handed back to the outbox (their leases end now, for another process to take over), or, without
   * one, dropped with an event each. Resolves once the aborted requests have settled.
   */
  async close(): Promise<void> {
    let handedBack: Promise<unknown> | undefined;
    if (!this.closed) {
      this.closed = true;
      this.clearTimer();
      if (this.leaseTimer) clearInterval(this.leaseTimer);
      const closing: Delivery[] = [];
      for (const queue of this.instances.values()) {
        for (const delivery of [...queue.held]) {
          delivery.inFlight?.abort(new Error('the authorizer is closing'));
          this.remove(delivery);
          if (delivery.stored) closing.push(delivery);
          else this.drop(delivery, 'the authorizer closed before the webhook was delivered');
        }
      }
      this.retries.clear();
      handedBack = this.handBack(closing);
    }
    await Promise.allSettled([...this.running, handedBack, this.leaseWork]);
  }

  /** End our leases on `closing` at once, so that another process takes them over without waiting. */
  private async handBack(closing: Delivery[]): Promise<void> {
    const outbox = this.outbox!;
    this.outboxed.clear();
    // Adds still in flight settle first, so that what they stored is handed back too.
    const stored = await Promise.all(closing.map((delivery) => delivery.stored!));
    const refs: OutboxRef[] = [];
    closing.forEach((delivery, i) => {
      if (stored[i] === 'held') refs.push(refOf(delivery));
      // Not in the outbox (it refused it, or the store failed): nobody else will send it.
      else if (stored[i] !== 'duplicate') this.drop(delivery, 'the authorizer closed before the webhook was delivered');
    });
    if (refs.length === 0) return;
    await outbox.store.renewWebhooks(refs, { holder: outbox.holder, until: 0 }).catch((error: unknown) => this.log['webhook.outbox_failed']?.({ step: 'renew', err: describeError(error) }));
  }

  private queueOf(instanceId: string): InstanceQueue {
    let queue = this.instances.get(instanceId);
    // Instance ids come from the configuration: the map is bounded by it.
    if (!queue) this.instances.set(instanceId, (queue = { held: new LinkedSet(), runnable: new LinkedSet(), inFlight: 0, servedAt: 0 }));
    return queue;
  }

  /**
   * The oldest delivery not in flight of the instance holding the most (the enqueuing instance on a
   * tie, so that a flood pushes out its own first). That instance holds at least the average, so an
   * instance under its fair share never loses one. The scan skips at most maxConcurrent entries.
   */
  private evictionCandidate(own: InstanceQueue): Delivery | undefined {
    let fullest = own;
    for (const queue of this.instances.values()) if (queue.held.size > fullest.held.size) fullest = queue;
    for (const delivery of fullest.held) if (!delivery.inFlight) return delivery;
    return undefined;
  }

  /** Start every attempt that may start now; arm the timer for the next retry that must wait. */
  private pump(): void {
    if (this.closed) return;
    const now = Date.now();
    for (let next = this.retries.peek(); next && (next.gone || next.readyAt <= now); next = this.retries.peek()) {
      this.retries.pop();
      if (!next.gone) this.queueOf(next.instanceId).runnable.add(next);
    }
    while (this.inFlight < this.settings.maxConcurrent) {
      const queue = this.nextQueue();
      if (!queue) break;
      const delivery = queue.runnable.first()!;
      queue.runnable.delete(delivery);
      queue.servedAt = ++this.starts;
      const running = this.attempt(delivery, queue).finally(() => this.running.delete(running));
      this.running.add(running);
    }
    this.armTimer(this.retries.peek()?.readyAt ?? Infinity);
  }

  /**
   * The instance whose next delivery takes a free slot: the one with the fewest requests in flight
   * among those with a delivery ready (on a tie, the one served longest ago); while two or more have
 * one ready, none goes past its share.
   */
  private nextQueue(): InstanceQueue | undefined {
    const share = Math.ceil(this.settings.maxConcurrent / 2);
    let ready = 0;
    for (const queue of this.instances.values()) if (queue.runnable.size > 0) ready++;
    let chosen: InstanceQueue | undefined;
    for (const queue of this.instances.values()) {
      if (queue.runnable.size === 0 || (ready > 1 && queue.inFlight >= share)) continue;
      if (!chosen || queue.inFlight < chosen.inFlight || (queue.inFlight === chosen.inFlight && queue.servedAt < chosen.servedAt)) chosen = queue;
    }
    return chosen;
  }

  private armTimer(at: number): void {
    if (at === this.timerAt) return;
    this.clearTimer();
    if (at === Infinity) return;
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = Infinity;
        this.pump();
      },
      // A delay past the timer's range would fire at once: wait the longest it takes, then look again.
      Math.min(MAX_TIMER_MS, Math.max(0, at - Date.now())),
    );
    // Pending deliveries do not keep a process alive on their own (close() is the orderly stop).
    this.timer.unref?.();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  private async attempt(delivery: Delivery, queue: InstanceQueue): Promise<void> {
    const controller = new AbortController();
    delivery.inFlight = controller;
    this.inFlight++;
    queue.inFlight++;
    // With an outbox, nothing is sent before the outbox has it: a delivery it refused is not ours to send.
    const stored = delivery.stored ? await delivery.stored : 'local';
    if (stored === 'full' || stored === 'duplicate' || this.closed) {
      this.inFlight--;
      queue.inFlight--;
      delivery.inFlight = undefined;
      if (this.closed) return;
      this.remove(delivery);
      // A duplicate is held in the outbox by whoever queued it first, and delivered from there.
      if (stored === 'full') this.drop(delivery, 'the outbox holds webhookDelivery.maxQueued deliveries of this instance; the new one was dropped');
      this.pump();
      return;
    }
    delivery.attempts++;
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
          // Any 2xx means delivered, whatever the receiver says in its body.
          oversizedBody: 'truncate',
          signal: controller.signal,
        },
        this.settings.outbound,
      );
      outcome = { status: response.status };
    } catch (error) {
      outcome = { error };
    } finally {
      this.inFlight--;
      queue.inFlight--;
      delivery.inFlight = undefined;
    }
    if (this.closed) return; // close() already dropped it
    this.settle(delivery, outcome);
    this.pump();
  }

  private settle(delivery: Delivery, outcome: { status: number } | { error: unknown }): void {
    if ('status' in outcome) {
      this.remove(delivery);
      void this.release(delivery);
      this.report(delivery, 'webhook.delivered', { httpStatus: outcome.status });
      this.log['webhook.delivered']?.({ ...this.fields(delivery), httpStatus: outcome.status });
      return;
    }
    const error = outcome.error;
    const failure = error instanceof OutboundFetchError ? error : undefined;
    const detail = { code: failure?.code ?? 'outbound.network', ...(failure?.status !== undefined ? { httpStatus: failure.status } : {}) };
    // 410 Gone: the receiver asks us to stop. A refused destination stays refused, and a redirect is
    // never followed, so it would answer the same: retrying cannot help.
    const final = failure?.status === 410 || failure?.reason === 'destination' || failure?.reason === 'redirect' || delivery.attempts >= this.settings.maxAttempts;
    if (final) {
      this.remove(delivery);
      void this.release(delivery);
      this.report(delivery, 'webhook.gave_up', detail);
      this.log['webhook.gave_up']?.({ ...this.fields(delivery), code: detail.code, httpStatus: failure?.status, err: failure ? undefined : describeError(error) });
      return;
    }
    delivery.readyAt = Date.now() + this.backoff(delivery.attempts);
    this.retries.push(delivery);
    // Whoever takes it over continues the count (best effort: a lost write costs an attempt more).
    if (delivery.held) void this.outbox!.store.recordWebhookAttempts(refOf(delivery), this.outbox!.holder, delivery.attempts).catch(() => undefined);
    // Entries of deliveries dropped while they waited stay until their time comes; shed them in bulk
    // before they outnumber the queue (amortized O(1) per retry).
    if (this.retries.size > 2 * this.settings.maxQueued) this.retries.retain((d) => !d.gone);
    this.report(delivery, 'webhook.failed', detail);
    this.log['webhook.retrying']?.({ ...this.fields(delivery), code: detail.code, httpStatus: failure?.status });
  }

  /** Exponential backoff with full jitter in its upper half: base·2^(n−1), capped, times [0.5, 1). */
  private backoff(attempts: number): number {
    const { initialBackoffMs, maxBackoffMs } = this.settings;
    const ceiling = Math.min(maxBackoffMs, initialBackoffMs * 2 ** Math.min(attempts - 1, 30));
    return Math.ceil(ceiling / 2 + randomInt(0, Math.max(1, Math.floor(ceiling / 2))));
  }

  /** Take a delivery out of the queue; the next change of its authorization becomes ready. */
  private remove(delivery: Delivery): void {
    if (delivery.gone) return;
    delivery.gone = true;
    const queue = this.queueOf(delivery.instanceId);
    queue.held.delete(delivery);
    queue.runnable.delete(delivery);
    this.held--;
    const chain = this.chains.get(delivery.chain);
    if (!chain) return;
    const index = chain.indexOf(delivery);
    if (index !== -1) chain.splice(index, 1);
    if (chain.length === 0) this.chains.delete(delivery.chain);
    else if (index === 0) queue.runnable.add(chain[0]!);
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

/** The outbox's form of a delivery (the key stays with the configuration). */
function toOutbox(delivery: Delivery): OutboxDelivery {
  return {
    instanceId: delivery.instanceId,
    id: delivery.message.id,
    authorizationId: delivery.authorizationId,
    sequence: delivery.sequence,
    url: delivery.url,
    eventType: delivery.message.eventType,
    body: new TextDecoder().decode(delivery.message.body),
    attempts: delivery.attempts,
  };
}

const refOf = (delivery: Delivery): OutboxRef => ({ instanceId: delivery.instanceId, id: delivery.message.id });
const outboxKey = (ref: OutboxRef) => `${ref.instanceId}\n${ref.id}`;
