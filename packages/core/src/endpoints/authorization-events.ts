import * as v from 'valibot';
import { loadForInstance } from '../authorization/transitions.js';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { describeError } from '../events/logger.js';
import { isTerminalStatus, type AuthorizationRecord } from '../model/authorization-record.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import type { StatusEvent, WatchedStream } from '../runtime/status-watchers.js';
import type { CoreResponse, CoreResponseStream } from '../wire/core-request.js';
import { statusOf, type StatusResponse } from './authorization-status.js';
import { defineEndpoint } from './endpoint.js';
import { AUTHORIZATION_ID } from './shared-schemas.js';

/** Added to the last moment a record can still change (expiry, or the end of a claim) before a stream gives up. */
export const STREAM_LIFETIME_MARGIN_MS = 10_000;
/** Even for a far-off expiry, a stream ends after this (EventSource clients reconnect on their own). */
const MAX_STREAM_LIFETIME_MS = 24 * 60 * 60_000;

const HEADERS: [string, string][] = [
  ['content-type', 'text/event-stream; charset=utf-8'],
  ['cache-control', 'no-store'],
  // nginx and similar proxies buffer responses unless told not to.
  ['x-accel-buffering', 'no'],
];

/** One Server-Sent Event carrying the status body of GET …/status. */
const statusEvent = (body: StatusResponse) => `event: status\ndata: ${JSON.stringify(body)}\n\n`;
const HEARTBEAT = ': heartbeat\n\n';

/** created < pending < pending and processing < terminal: in-process events only ever move forward. */
const rank = (body: StatusResponse) => (isTerminalStatus(body.status) ? 3 : body.status === 'created' ? 0 : body.processing ? 2 : 1);
const sameBody = (a: StatusResponse, b: StatusResponse) => a.status === b.status && a.processing === b.processing;
const bodyOfEvent = (event: StatusEvent): StatusResponse =>
  event.type === 'authorization.processing' ? { status: event.status, processing: true } : { status: event.status };

/**
 * Open the event stream of one authorization: its current status at once, then each change, and
 * the end after a terminal status. Changes made in this process arrive as they are emitted; those
 * made by another process (several processes on one store) arrive with the next re-read of the
 * record, at most `pollMs` later. Bounded: a per-process and a per-instance cap on open streams, one store read per
 * stream per `pollMs`, a lifetime ending shortly after the last moment the record can change, and
 * every timer and listener released when the client goes away.
 */
export async function openStatusStream(ctx: AuthorizerContext, instanceId: string, id: string): Promise<CoreResponse> {
  const watchers = ctx.statusWatchers;
  const session = new StatusStream(ctx, instanceId, id);
  const release = watchers.reserve(session, instanceId);
  if (!release) throw new TooManyStreamsError();
  session.onClose(release);
  // Listen before the first read, so that a change landing during the read is not missed.
  session.onClose(watchers.watch(instanceId, id, (event) => session.fromEvent(event)));
  let record: AuthorizationRecord;
  try {
    record = await loadForInstance(ctx, instanceId, id);
  } catch (error) {
    session.cancel();
    throw error;
  }
  session.start(record);
  return { status: 200, headers: HEADERS.map(([name, value]): [string, string] => [name, value]), stream: session };
}

/** 503 with Retry-After: streams end on their own (terminal status, lifetime), so a slot frees up. */
export class TooManyStreamsError extends AuthorizerError {
  readonly retryAfterSeconds = 5;
  constructor() {
    super('events.too_many_streams');
  }
}

class StatusStream implements CoreResponseStream, WatchedStream {
  /** Status bodies not yet written (a handful at most: the statuses only move forward). */
  private readonly queue: StatusResponse[] = [];
  private last: StatusResponse | undefined;
  private heartbeatDue = false;
  /** Set once the terminal status is queued, or on cancel: nothing more is produced. */
  private finished = false;
  private waiting: ((result: IteratorResult<string>) => void) | undefined;
  private readonly held = new Set<ReturnType<typeof setTimeout>>();
  private readonly cleanups: (() => void)[] = [];
  private released = false;
  /** Bumped by every in-process event: a store read that overlapped one may be older, so it is dropped. */
  private generation = 0;
  private reading = false;

  constructor(
    private readonly ctx: AuthorizerContext,
    private readonly instanceId: string,
    private readonly id: string,
  ) {}

  /** Run `cleanup` when the stream releases what it holds (at once if it already did). */
  onClose(cleanup: () => void): void {
    if (this.released) return cleanup();
    this.cleanups.push(cleanup);
  }

  start(record: AuthorizationRecord): void {
    const first = statusOf(record, this.ctx.clock.now());
    // Events that arrived during the first read and are not newer than it are already in it.
    const later = this.queue.splice(0).filter((body) => rank(body) > rank(first));
    this.last = undefined;
    this.push(first);
    for (const body of later) this.push(body);
    if (this.finished) return;
    const { heartbeatMs, pollMs } = this.ctx.statusWatchers.settings;
    this.every(heartbeatMs, () => {
      this.heartbeatDue = true;
      this.wake();
    });
    this.every(pollMs, () => void this.poll());
    const instance = this.ctx.instances.get(record.instanceId);
    const lastChange = Math.max(record.expiresAt + (instance?.claimGraceMs ?? 0), record.claimExpiresAt ?? 0);
    const lifetime = Math.min(Math.max(lastChange - this.ctx.clock.now(), 0) + STREAM_LIFETIME_MARGIN_MS, MAX_STREAM_LIFETIME_MS);
    const timer = setTimeout(() => this.end(), lifetime);
    timer.unref?.();
    this.held.add(timer);
  }

  fromEvent(event: StatusEvent): void {
    this.generation++;
    const body = bodyOfEvent(event);
    // Before the first read (start) the queue is filtered against it; afterwards only forward moves count.
    if (this.last === undefined) return void this.queue.push(body);
    if (rank(body) > rank(this.last)) this.push(body);
  }

  /** Re-read the record: the only way a change written by another process reaches this stream. */
  private async poll(): Promise<void> {
    if (this.reading || this.finished) return;
    this.reading = true;
    const generation = this.generation;
    try {
      const body = statusOf(await loadForInstance(this.ctx, this.instanceId, this.id), this.ctx.clock.now());
      // An event during the read may be newer than what was read; a read with none is current
      // (it can also see a claim given back: processing → pending).
      if (generation === this.generation && this.last && !sameBody(body, this.last)) this.push(body);
    } catch (error) {
      if (error instanceof AuthorizerError && error.code === 'authorization.not_found') return this.end(); // retention ended
      // A store outage: try again on the next tick; the lifetime bounds how long.
      this.ctx.log['events.reread_failed']?.({ err: describeError(error) });
    } finally {
      this.reading = false;
    }
  }

  private push(body: StatusResponse): void {
    if (this.finished) return;
    if (this.last && sameBody(body, this.last)) return;
    this.last = body;
    this.queue.push(body);
    if (isTerminalStatus(body.status)) {
      this.finished = true;
      this.heartbeatDue = false;
      this.release(); // nothing more will come: free the slot now, the queue drains on its own
    }
    this.wake();
  }

  private every(ms: number, tick: () => void): void {
    const timer = setInterval(tick, ms);
    timer.unref?.();
    this.held.add(timer);
  }

  private wake(): void {
    const waiting = this.waiting;
    if (!waiting) return;
    const next = this.take();
    if (next) {
      this.waiting = undefined;
      waiting(next);
    }
  }

  /** The next chunk to write, or undefined when there is none yet. */
  private take(): IteratorResult<string> | undefined {
    const body = this.queue.shift();
    if (body) return { done: false, value: statusEvent(body) };
    if (this.finished) return { done: true, value: undefined };
    if (this.heartbeatDue) {
      this.heartbeatDue = false;
      return { done: false, value: HEARTBEAT };
    }
    return undefined;
  }

  private end(): void {
    this.finished = true;
    this.queue.length = 0;
    this.release();
    this.wake();
  }

  /** Clear timers, stop listening, give the slot back. Idempotent. */
  private release(): void {
    this.released = true;
    for (const timer of this.held) clearTimeout(timer); // clearTimeout also clears an interval
    this.held.clear();
    for (const cleanup of this.cleanups.splice(0)) cleanup();
  }

  cancel(): void {
    this.end();
  }

  timers(): number {
    return this.held.size;
  }

  [Symbol.asyncIterator](): AsyncIterator<string> {
    return {
      next: () => {
        if (this.waiting) return Promise.reject(new Error('One read at a time.'));
        const ready = this.take();
        if (ready) return Promise.resolve(ready);
        return new Promise((resolve) => (this.waiting = resolve));
      },
      return: () => {
        this.cancel();
        return Promise.resolve({ done: true, value: undefined });
      },
    };
  }
}

export const authorizationEventsEndpoint = defineEndpoint({
  operationId: 'streamAuthorizationEvents',
  name: 'authorizations.events',
  method: 'GET',
  path: '/openid4/vp/v1_0/authorizations/{authorizationId}/events',
  audience: 'rp',
  summary: 'Stream the status of an authorization (Server-Sent Events)',
  description:
    'Server-Sent Events. The first event is the current status, then one event per change, each `event: status` with the body of GET …/status as `data`; the stream ends after a terminal status. Comment lines (`: heartbeat`) keep it open while nothing changes. A change made by another process on the same store arrives within `eventStreams.pollMs`. Clients close their EventSource on a terminal status (EventSource reconnects otherwise).',
  pathParams: AUTHORIZATION_ID,
  responses: {
    200: {
      description: 'A text/event-stream of `event: status` events whose data is an AuthorizationStatus ({status, processing?}).',
      contentType: 'text/event-stream',
      schema: v.pipe(v.string(), v.description('Server-Sent Events (`event: status`, `data: {"status": …}`).')),
    },
  },
  errors: [404, 503],
  errorDescriptions: { 503: 'The state store is unavailable, or this process serves its maximum of event streams; retry after Retry-After seconds.' },
  run: ({ ctx, params, instance }) => openStatusStream(ctx, instance.id, params[0]!),
});
