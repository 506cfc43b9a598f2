/**
 * Deadlines for in-flight store operations that all share one timeout. Every operation gets the
 * same timeout, so registration order is deadline order: one timer, armed for the oldest
 * operation still registered, replaces a timer per operation (a setTimeout/clearTimeout pair cost
 * about as much as the rest of a GETDEL round trip's client-side work). An operation expires no
 * earlier than `timeoutMs` after it was added, measured on the monotonic clock.
 */
export interface OperationDeadlines {
  /** Registers an operation: `timeoutMs` from now, unless `settle` ran first, its `reject` gets the timeout error (once). */
  add(reject: (error: Error) => void): DeadlineEntry;
  /** Unregisters an operation that has settled (idempotent; its `reject` is then never called). */
  settle(entry: DeadlineEntry): void;
}

export interface DeadlineEntry {
  readonly deadline: number;
  readonly reject: (error: Error) => void;
}

/** `timeoutError` makes the error an expired operation is rejected with (one per operation). */
export function operationDeadlines(timeoutMs: number, timeoutError: () => Error): OperationDeadlines {
  // A Set iterates in insertion order and deletes in O(1): the oldest entry is always first.
  const pending = new Set<DeadlineEntry>();
  let armed = false;

  const sweep = (): void => {
    armed = false;
    const now = performance.now();
    for (const entry of pending) {
      if (entry.deadline > now) {
        arm(entry.deadline - now);
        return;
      }
      pending.delete(entry);
      entry.reject(timeoutError());
    }
  };

  function arm(delayMs: number): void {
    armed = true;
    // Timers round to whole milliseconds and may fire a fraction early: the sweep re-checks.
    // Unref'd: the timer outlives the last operation by up to timeoutMs and must not hold a
    // process open after the store is closed (a pending command holds it open by its socket).
    setTimeout(sweep, Math.ceil(delayMs)).unref();
  }

  return {
    add(reject) {
      const entry: DeadlineEntry = { deadline: performance.now() + timeoutMs, reject };
      pending.add(entry);
      // While armed, the timer is due at or before this entry's deadline (entries only get later).
      if (!armed) arm(timeoutMs);
      return entry;
    },
    settle(entry) {
      pending.delete(entry);
    },
  };
}
