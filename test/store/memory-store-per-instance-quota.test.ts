// The memory store holds every instance's records in one heap. Without a bound per instance, one
// API-key holder (or a retry loop) could grow the process until it fails for every instance.
import { afterEach, describe, expect, it } from 'vitest';
import { createTestClock, makeTestRecord } from '@vp-authorizer/testing/contracts';
import { ConfigError, isStoreQuotaExceededError, memoryStore, type AuthorizationRecord, type MemoryStore } from '@vp-authorizer/core';

let store: MemoryStore | undefined;
afterEach(() => store?.close());

const MINUTE = 60_000;
const record = (instanceId: string, overrides: Partial<AuthorizationRecord> = {}) => makeTestRecord({ instanceId, ...overrides });

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isStoreQuotaExceededError(error), String(error)).toBe(true);
  return error as { code: string; retryAfterSeconds: number; message: string };
}

describe('memoryStore: a quota per instance', () => {
  it('refuses the record past maxRecordsPerInstance with a typed error and a Retry-After; other instances are not affected', async () => {
    const clock = createTestClock();
    store = memoryStore({ clock, sweepIntervalMs: 0, maxRecordsPerInstance: 3 });
    for (let i = 0; i < 3; i++) await store.create(record('a'), 10 * MINUTE);
    const error = await refusal(store.create(record('a'), 10 * MINUTE));
    expect(error.code).toBe('store.quota_exceeded');
    // The first record leaves after its TTL: that is when to try again.
    expect(error.retryAfterSeconds).toBe(600);
    expect(error.message).toMatch(/3 records/);
    const other = record('b');
    await store.create(other, 10 * MINUTE);
    expect(await store.get('b', other.id)).toEqual(other);
    expect(store.usage('a')).toEqual({ records: 3, bytes: expect.any(Number) });
    expect(store.usage('b').records).toBe(1);
  });

  it('refuses the record that would pass maxBytesPerInstance (accounted bytes), and accepts one that fits', async () => {
    const clock = createTestClock();
    const size = await sizeOf(record('a'));
    store = memoryStore({ clock, sweepIntervalMs: 0, maxBytesPerInstance: 2 * size + 100 });
    await store.create(record('a'), MINUTE);
    await store.create(record('a'), MINUTE);
    await refusal(store.create(record('a'), MINUTE));
    // Another instance has its own budget.
    await store.create(record('b'), MINUTE);
  });

  it('counts what a record holds in memory, not its JSON length: many empty objects reach the quota far sooner', async () => {
    const clock = createTestClock();
    const plain = record('a');
    // `{}` is 2 characters of JSON (3 with its comma) but some 60 bytes of heap.
    const heavy = record('a', { request: { ...plain.request, verifierInfo: Array.from({ length: 2_000 }, () => ({})) } });
    const jsonExtra = JSON.stringify(heavy).length - JSON.stringify(plain).length;
    const accountedExtra = (await sizeOf(heavy)) - (await sizeOf(plain));
    expect(accountedExtra).toBeGreaterThan(20 * jsonExtra);
    // A quota ten times the record's JSON length, which JSON length would fill only at the tenth record, refuses the first.
    store = memoryStore({ clock, sweepIntervalMs: 0, maxBytesPerInstance: 10 * JSON.stringify(heavy).length });
    await refusal(store.create(heavy, MINUTE));
    await store.create(plain, MINUTE);
  });

  it('counts a record until it leaves: after its TTL the slot is free again, swept or not', async () => {
    const clock = createTestClock();
    store = memoryStore({ clock, sweepIntervalMs: 0, maxRecordsPerInstance: 2 });
    await store.create(record('a'), MINUTE);
    await store.create(record('a'), 5 * MINUTE);
    expect((await refusal(store.create(record('a'), MINUTE))).retryAfterSeconds).toBe(60);
    clock.advance(MINUTE);
    // No sweep ran: the store reclaims what expired before refusing.
    await store.create(record('a'), MINUTE);
    expect((await refusal(store.create(record('a'), MINUTE))).retryAfterSeconds).toBe(60);
  });

  it('never refuses a compare-and-set, even one that grows the instance past its bytes; the next create is refused', async () => {
    const clock = createTestClock();
    const created = record('a');
    const size = await sizeOf(created);
    store = memoryStore({ clock, sweepIntervalMs: 0, maxBytesPerInstance: size * 3 });
    await store.create(created, MINUTE);
    const grown: AuthorizationRecord = { ...created, version: 2, status: 'authorized', credentials: [{ path: ['pid', 0], format: 'dc+sd-jwt', credentialType: 'urn:eudi:pid:1', claims: { pad: 'x'.repeat(size * 3) } }] };
    expect(await store.compareAndSet(grown, 1)).toBe(true);
    expect(store.usage('a').bytes).toBeGreaterThan(size * 4);
    await refusal(store.create(record('a'), MINUTE));
  });

  it('counts a record changed by compare-and-sets as it counts the same record created afresh', async () => {
    const clock = createTestClock();
    store = memoryStore({ clock, sweepIntervalMs: 0 });
    const created = record('a');
    await store.create(created, MINUTE);
    const claimed: AuthorizationRecord = { ...created, version: 2, status: 'pending', responseClaimedAt: 5, claimExpiresAt: 25_005 };
    expect(await store.compareAndSet(claimed, 1)).toBe(true);
    const { responseClaimedAt: _claimedAt, claimExpiresAt: _deadline, encryptionKey: _key, ...rest } = claimed;
    const decided: AuthorizationRecord = { ...rest, version: 3, status: 'authorized', credentials: [{ path: ['pid', 0], format: 'dc+sd-jwt', credentialType: 'urn:eudi:pid:1', claims: { given_name: 'Érika' } }] };
    expect(await store.compareAndSet(decided, 2)).toBe(true);
    expect(store.usage('a').bytes).toBe(await sizeOf(decided));
  });

  it('a duplicate id is refused as before and takes no budget', async () => {
    const clock = createTestClock();
    store = memoryStore({ clock, sweepIntervalMs: 0, maxRecordsPerInstance: 2 });
    const first = record('a');
    await store.create(first, MINUTE);
    await expect(store.create({ ...first }, MINUTE)).rejects.toThrow(/already exists/);
    await store.create(record('a'), MINUTE);
  });

  it('has finite defaults, and refuses quotas that are not positive integers at construction', () => {
    expect(() => memoryStore({ maxRecordsPerInstance: 0 })).toThrow(ConfigError);
    expect(() => memoryStore({ maxRecordsPerInstance: 1.5 })).toThrow(ConfigError);
    expect(() => memoryStore({ maxBytesPerInstance: -1 })).toThrow(ConfigError);
    expect(() => memoryStore({ maxBytesPerInstance: Number.NaN })).toThrow(/maxBytesPerInstance/);
    store = memoryStore({ sweepIntervalMs: 0 });
    expect(store.quota).toEqual({ maxRecordsPerInstance: 100_000, maxBytesPerInstance: 256 * 1024 * 1024 });
  });
});


/** What one record counts against the bytes quota, as the store itself measures it. */
async function sizeOf(sample: AuthorizationRecord): Promise<number> {
  const probe = memoryStore({ sweepIntervalMs: 0 });
  await probe.create(sample, MINUTE);
  const { bytes } = probe.usage(sample.instanceId);
  probe.close();
  expect(bytes).toBeGreaterThan(500);
  return bytes;
}
