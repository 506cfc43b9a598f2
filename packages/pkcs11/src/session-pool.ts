/**
 * A few PKCS#11 sessions reused across signatures. A session runs one operation at a time
 * (C_SignInit then C_Sign), so each signature borrows one; at most `size` are open, further
 * signatures wait in a queue of at most `maxQueue` (beyond it they are refused at once).
 *
 * A borrower that gives up on a call the token never answers marks the session `hung`: it stays
 * borrowed (its call still holds a thread) until the call returns. While every session is hung,
 * the token is not answering: waiting would only end in the caller's timeout, so acquire() and
 * the queue are refused at once. Not thread-safe beyond the event loop, which is all it needs.
 */
export interface SessionPool<S> {
  /** Borrow a session (opening one if fewer than `size` are open); give it back with `release` or `discard`. */
  acquire(): Promise<S>;
  release(session: S): void;
  /** A session that failed: close it instead of reusing it. */
  discard(session: S): void;
  /** The borrower gave up on this session's call, which has not returned; `discard` it when it does. */
  hung(session: S): void;
  /** Close every idle session (the token went away); borrowed ones are discarded when they come back. */
  reset(): void;
  /** Sessions open now (idle, borrowed and hung). */
  readonly open: number;
  /** Sessions whose call was given up on and has not returned. */
  readonly hungCount: number;
  /**
   * Refuse new borrowers, wait for the borrowed sessions to come back, close everything. Does not
   * wait for hung calls (they may never return); `whenEmpty` tells when the last one did.
   */
  drain(): Promise<void>;
  /** Resolves once no session is open at all, hung ones included. */
  whenEmpty(): Promise<void>;
}

export function createSessionPool<S>(options: {
  size: number;
  maxQueue: number;
  openSession: () => S;
  closeSession: (session: S) => void;
}): SessionPool<S> {
  const idle: S[] = [];
  const waiters: { resolve: (s: S) => void; reject: (e: Error) => void }[] = [];
  const hung = new Set<S>();
  let open = 0;
  let generation = 0;
  const generationOf = new Map<S, number>();
  let drained: (() => void) | undefined;
  const emptied: (() => void)[] = [];
  let closed = false;

  const settle = () => {
    if (drained && open - hung.size === 0) drained();
    if (open === 0) for (const resolve of emptied.splice(0)) resolve();
  };
  const close = (session: S) => {
    open--;
    hung.delete(session);
    generationOf.delete(session);
    try {
      options.closeSession(session);
    } catch {
      // Closing a session of a token that is gone fails; it is gone either way.
    }
    settle();
  };
  const openOne = (): S => {
    const session = options.openSession();
    open++;
    generationOf.set(session, generation);
    return session;
  };
  const handOver = (session: S) => {
    const waiter = waiters.shift();
    if (waiter) waiter.resolve(session);
    else idle.push(session);
  };
  /** A waiter whose session was closed gets a fresh one if it can be opened, else the failure. */
  const serveWaiter = () => {
    const waiter = waiters.shift();
    if (!waiter) return;
    try {
      waiter.resolve(openOne());
    } catch (error) {
      waiter.reject(error as Error);
    }
  };
  const allHung = () => new Error(`all ${options.size} PKCS#11 sessions wait for calls the token has not answered`);

  return {
    get open() {
      return open;
    },
    get hungCount() {
      return hung.size;
    },
    async acquire() {
      if (closed) throw new Error('the PKCS#11 signer is closed');
      if (hung.size >= options.size) throw allHung();
      const session = idle.pop();
      if (session !== undefined) return session;
      if (open < options.size) return openOne();
      if (waiters.length >= options.maxQueue) throw new Error(`all ${options.size} PKCS#11 sessions are busy and ${options.maxQueue} signatures wait already`);
      return new Promise<S>((resolve, reject) => waiters.push({ resolve, reject }));
    },
    release(session) {
      if (closed || generationOf.get(session) !== generation) {
        close(session);
        if (!closed) serveWaiter();
        return;
      }
      handOver(session);
    },
    discard(session) {
      close(session);
      if (!closed) serveWaiter();
    },
    hung(session) {
      hung.add(session);
      if (hung.size >= options.size) for (const waiter of waiters.splice(0)) waiter.reject(allHung());
      settle();
    },
    reset() {
      generation++;
      for (const session of idle.splice(0)) close(session);
    },
    drain() {
      closed = true;
      for (const waiter of waiters.splice(0)) waiter.reject(new Error('the PKCS#11 signer is closed'));
      for (const session of idle.splice(0)) close(session);
      if (open - hung.size === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        drained = resolve;
      });
    },
    whenEmpty() {
      if (open === 0) return Promise.resolve();
      return new Promise<void>((resolve) => emptied.push(resolve));
    },
  };
}
