/** A manual clock for stores that accept `clock: { now() }`: time moves only when told to. */
export interface TestClock {
  now(): number;
  advance(ms: number): void;
}

export function createTestClock(start = Date.UTC(2030, 0, 1)): TestClock {
  let current = start;
  return {
    now: () => current,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance(ms) needs a finite ms ≥ 0.');
      current += ms;
    },
  };
}
