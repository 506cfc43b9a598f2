import { describe, expect, it } from 'vitest';
import { operationDeadlines } from '../src/operation-deadlines.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An operation registered now: settles when its deadline rejects it, or never. */
function track(deadlines: ReturnType<typeof operationDeadlines>) {
  const started = performance.now();
  let rejectedAfterMs: number | undefined;
  let errors = 0;
  const entry = deadlines.add((error) => {
    errors++;
    rejectedAfterMs = performance.now() - started;
    expect(error.message).toBe('timed out');
  });
  return {
    entry,
    get rejectedAfterMs() {
      return rejectedAfterMs;
    },
    get errors() {
      return errors;
    },
  };
}

describe('operationDeadlines', () => {
  it('rejects an operation that has not settled, once, and not before its timeout', async () => {
    const deadlines = operationDeadlines(40, () => new Error('timed out'));
    const op = track(deadlines);
    await sleep(120);
    expect(op.errors).toBe(1);
    // The monotonic clock: never earlier than the timeout (1 ms of slack for timer rounding).
    expect(op.rejectedAfterMs).toBeGreaterThanOrEqual(39);
  });

  it('never rejects an operation that settled in time, even when the timer fires for another', async () => {
    const deadlines = operationDeadlines(40, () => new Error('timed out'));
    const settled = track(deadlines);
    const late = track(deadlines);
    deadlines.settle(settled.entry);
    deadlines.settle(settled.entry); // idempotent
    await sleep(120);
    expect(settled.errors).toBe(0);
    expect(late.errors).toBe(1);
  });

  it('an operation added after the first keeps its own, later deadline (the timer re-arms for it)', async () => {
    const deadlines = operationDeadlines(60, () => new Error('timed out'));
    const first = track(deadlines);
    await sleep(30);
    const second = track(deadlines);
    // Past the first deadline, before the second's.
    await sleep(45);
    expect(first.errors).toBe(1);
    expect(second.rejectedAfterMs === undefined || second.rejectedAfterMs >= 59).toBe(true);
    await sleep(120);
    expect(second.errors).toBe(1);
    expect(second.rejectedAfterMs).toBeGreaterThanOrEqual(59);
  });

  it('arms again for operations added after every earlier one settled or expired', async () => {
    const deadlines = operationDeadlines(30, () => new Error('timed out'));
    const early = track(deadlines);
    await sleep(90);
    expect(early.errors).toBe(1);
    const again = track(deadlines);
    await sleep(90);
    expect(again.errors).toBe(1);
    expect(again.rejectedAfterMs).toBeGreaterThanOrEqual(29);
  });

  it('a thousand operations settled in time leave nothing to reject', async () => {
    const errors: Error[] = [];
    const deadlines = operationDeadlines(30, () => new Error('timed out'));
    for (let i = 0; i < 1000; i++) deadlines.settle(deadlines.add((error) => errors.push(error)));
    await sleep(90);
    expect(errors).toEqual([]);
  });
});
