import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestClock, describeStoreContract, makeTestRecord } from '@vp-authorizer/testing/contracts';
import { memoryStore, type MemoryStore } from '@vp-authorizer/core';

describeStoreContract('memoryStore', {
  async create() {
    const clock = createTestClock();
    const store = memoryStore({ clock, sweepIntervalMs: 0 });
    return { store, clock, cleanup: async () => store.close() };
  },
});

describe('memoryStore', () => {
  let store: MemoryStore | undefined;
  afterEach(() => {
    store?.close();
    vi.useRealTimers();
  });

  it('sweep() drops records and codes past their TTL and returns how many', async () => {
    const clock = createTestClock();
    store = memoryStore({ clock, sweepIntervalMs: 0 });
    const brief = makeTestRecord();
    const kept = makeTestRecord();
    await store.create(brief, 1_000);
    await store.create(kept, 10_000);
    await store.put('i:a', { instanceId: 'i', authorizationId: 'a' }, 1_000);
    await store.put('i:b', { instanceId: 'i', authorizationId: 'b' }, 10_000);
    expect(store.sweep()).toBe(0);
    clock.advance(1_000);
    expect(store.sweep()).toBe(2);
    expect(store.sweep()).toBe(0);
    expect(await store.get(kept.instanceId, kept.id)).toEqual(kept);
    expect(await store.consume('i:b')).not.toBeNull();
  });

  it('sweeps on its timer, which does not keep the process alive, until close()', async () => {
    vi.useFakeTimers();
    const setIntervalSpy = vi.spyOn(globalThis, 'setInterval');
    const clock = createTestClock();
    store = memoryStore({ clock, sweepIntervalMs: 5_000 });
    const timer = setIntervalSpy.mock.results[0]?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    await store.put('i:a', { instanceId: 'i', authorizationId: 'a' }, 1_000);
    clock.advance(2_000);
    vi.advanceTimersByTime(5_000);
    // Had the timer not swept, this explicit sweep would find the expired code.
    expect(store.sweep()).toBe(0);
    store.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sweepIntervalMs: 0 starts no timer', () => {
    vi.useFakeTimers();
    store = memoryStore({ sweepIntervalMs: 0 });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects a negative sweep interval and non-positive TTLs', async () => {
    expect(() => memoryStore({ sweepIntervalMs: -1 })).toThrow(RangeError);
    store = memoryStore({ sweepIntervalMs: 0 });
    await expect(store.put('k', { instanceId: 'i', authorizationId: 'a' }, 0)).rejects.toThrow(RangeError);
    await expect(store.create(makeTestRecord(), Number.NaN)).rejects.toThrow(RangeError);
  });

  it('compareAndSet refuses a next record whose version is not expectedVersion + 1', async () => {
    store = memoryStore({ sweepIntervalMs: 0 });
    const record = makeTestRecord();
    await store.create(record, 10_000);
    await expect(store.compareAndSet({ ...record, status: 'pending' }, 1)).rejects.toThrow(RangeError);
    expect(await store.get(record.instanceId, record.id)).toEqual(record);
  });

  it('listDueForExpiry returns the earliest due records first', async () => {
    store = memoryStore({ sweepIntervalMs: 0 });
    const late = makeTestRecord({ expiresAt: 3_000 });
    const early = makeTestRecord({ expiresAt: 1_000 });
    const middle = makeTestRecord({ expiresAt: 2_000 });
    for (const r of [late, early, middle]) await store.create(r, 60_000);
    expect((await store.listDueForExpiry(5_000, 2)).map((c) => c.id)).toEqual([early.id, middle.id]);
  });

  it('hands every reader the same frozen copy of an open record', async () => {
    store = memoryStore({ sweepIntervalMs: 0 });
    const record = makeTestRecord({ status: 'pending' });
    await store.create(record, 10_000);
    const first = await store.get(record.instanceId, record.id);
    expect(first).toEqual(record);
    expect(Object.isFrozen(first) && Object.isFrozen(first!.request)).toBe(true);
    expect(await store.get(record.instanceId, record.id)).toBe(first);
  });

  it('checks the version of a terminal record like any other', async () => {
    store = memoryStore({ sweepIntervalMs: 0 });
    const record = makeTestRecord({ status: 'pending' });
    await store.create(record, 10_000);
    expect(await store.compareAndSet({ ...record, version: 2, status: 'rejected' }, 1)).toBe(true);
    expect(await store.compareAndSet({ ...record, version: 2, status: 'authorized' }, 1)).toBe(false);
    expect(await store.compareAndSet({ ...record, version: 3, status: 'error' }, 2)).toBe(true);
    expect(await store.get(record.instanceId, record.id)).toMatchObject({ version: 3, status: 'error' });
    expect(await store.listDueForExpiry(Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
  });

  it('uses the real clock by default', async () => {
    store = memoryStore({ sweepIntervalMs: 0 });
    await store.put('i:a', { instanceId: 'i', authorizationId: 'a' }, 60_000);
    expect(await store.consume('i:a')).toEqual({ instanceId: 'i', authorizationId: 'a' });
  });
});
