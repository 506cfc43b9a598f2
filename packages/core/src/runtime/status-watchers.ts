import type { AuthorizerEvent } from '../events/authorizer-event.js';

/** An in-process status change of one authorization (what `ctx.emit` publishes). */
export type StatusEvent = Extract<AuthorizerEvent, { type: `authorization.${string}` }>;
export type StatusListener = (event: StatusEvent) => void;

/** Limits and timings of the event streams (`GET …/events`), validated with the options. */
export interface EventStreamSettings {
  /** Open streams this process serves at most; one more answers 503 + Retry-After. */
  maxStreams: number;
  /** Open streams of one instance at most, so that one API key cannot take every slot of the process. */
  maxStreamsPerInstance: number;
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs: number;
  /** Each stream re-reads its record this often: how a change made by another process arrives. */
  pollMs: number;
}

/** What an open stream reports for `stats()`. */
export interface WatchedStream {
  /** Timers it holds now (0 once closed). */
  timers(): number;
  /** End it (the authorizer is closing). */
  cancel(): void;
}

/**
 * The in-process side of the event streams: who listens to which authorization, and how many
 * streams are open (the cap). One per authorizer; every change `ctx.emit` publishes goes through
 * `notify`, which costs one map lookup when nobody listens.
 */
export class StatusWatchers {
  private readonly listeners = new Map<string, Set<StatusListener>>();
  private readonly open = new Set<WatchedStream>();
  /** Open streams per instance (instance ids come from the configuration: bounded). */
  private readonly perInstance = new Map<string, number>();

  constructor(readonly settings: EventStreamSettings) {}

  /** Take a stream slot of `instanceId`; null when its cap or the process's is reached. The returned release is idempotent. */
  reserve(stream: WatchedStream, instanceId: string): (() => void) | null {
    const held = this.perInstance.get(instanceId) ?? 0;
    if (this.open.size >= this.settings.maxStreams || held >= this.settings.maxStreamsPerInstance) return null;
    this.open.add(stream);
    this.perInstance.set(instanceId, held + 1);
    return () => {
      if (!this.open.delete(stream)) return;
      const left = (this.perInstance.get(instanceId) ?? 1) - 1;
      if (left === 0) this.perInstance.delete(instanceId);
      else this.perInstance.set(instanceId, left);
    };
  }

  /** Listen to one authorization's changes; returns the (idempotent) unsubscribe. */
  watch(instanceId: string, authorizationId: string, listener: StatusListener): () => void {
    const key = keyOf(instanceId, authorizationId);
    let set = this.listeners.get(key);
    if (!set) this.listeners.set(key, (set = new Set()));
    set.add(listener);
    return () => {
      const current = this.listeners.get(key);
      if (!current?.delete(listener)) return;
      if (current.size === 0) this.listeners.delete(key);
    };
  }

  notify(event: AuthorizerEvent): void {
    if (!event.type.startsWith('authorization.')) return;
    const set = this.listeners.get(keyOf(event.instanceId, event.authorizationId));
    if (!set) return;
    // A copy: a listener may unsubscribe (terminal status) while we iterate.
    for (const listener of [...set]) {
      try {
        listener(event as StatusEvent);
      } catch {
        // One stream failing must not stop the others nor the flow that emitted the event.
      }
    }
  }

  /** End every open stream (authorizer.close()). */
  closeAll(): void {
    for (const stream of [...this.open]) stream.cancel();
  }

  /** Open streams, status listeners and timers held right now (for metrics and leak checks). */
  stats(): { streams: number; listeners: number; timers: number } {
    let listeners = 0;
    for (const set of this.listeners.values()) listeners += set.size;
    let timers = 0;
    for (const stream of this.open) timers += stream.timers();
    return { streams: this.open.size, listeners, timers };
  }
}

const keyOf = (instanceId: string, authorizationId: string) => `${instanceId}\n${authorizationId}`;
