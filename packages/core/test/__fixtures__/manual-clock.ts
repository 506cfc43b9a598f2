// Core's tests use core and third-party libraries only: @vp-authorizer/testing depends on core,
// so a dev dependency back on it would be a cycle that pnpm builds in parallel. Hence this one
// small clock of their own (the public one is createTestClock in @vp-authorizer/testing).

/** A clock for `clock: { now() }` options that moves only when told to. */
export function manualClock(start = Date.UTC(2030, 0, 1)) {
  let current = start;
  return {
    now: () => current,
    advance(ms: number) {
      current += ms;
    },
  };
}
