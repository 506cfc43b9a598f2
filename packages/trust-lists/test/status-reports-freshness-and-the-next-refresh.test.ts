import { buildSignedList, createListSigner, createTestCa, GRANTED, type ListSigner, type TestCa } from '@vp-authorizer/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { trustLists } from '../src/index.js';
import { SERVICE_TYPES } from '../src/vouching.js';
import { tempFolder } from './__fixtures__/temp-files.js';

// What a readiness probe reads: per list, whether it is loaded and fresh, when it goes stale
// (NextUpdate plus grace) and when it is loaded next (at NextUpdate within the refresh bounds, or a
// retry after a failure).

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('status() for a readiness probe', () => {
  let signer: ListSigner;
  let provider: TestCa;
  let folder: ReturnType<typeof tempFolder>;
  const clock = { at: Date.now(), now: () => clock.at };
  beforeAll(async () => {
    signer = await createListSigner('readiness list signer');
    provider = await createTestCa('CN=Readiness PID Provider CA');
    folder = tempFolder();
  });
  const list = (nextUpdate: number) =>
    buildSignedList({ nextUpdate: new Date(nextUpdate), services: [{ type: SERVICE_TYPES.pidIssuance, status: GRANTED, since: new Date(clock.at - DAY), certificates: [provider.x5c] }] }, signer);

  it('a loaded list reports ready, when it goes stale and its next refresh at NextUpdate (with at most 10% jitter)', async () => {
    // Lists carry whole seconds.
    const nextUpdate = Math.floor((clock.at + 2 * HOUR) / 1000) * 1000;
    const path = folder.write('fresh.xml', list(nextUpdate));
    const lists = trustLists({ sources: [`tl:${path}`], signers: [signer.pem], clock, graceMs: HOUR, refresh: { minIntervalMs: 60_000, maxIntervalMs: DAY, retryMs: 60_000 } });
    await lists.ready();
    const [status] = lists.status();
    expect(status).toMatchObject({ state: 'ready', nextUpdate, staleAt: nextUpdate + HOUR });
    expect(status!.nextRefreshAt).toBeGreaterThanOrEqual(nextUpdate);
    expect(status!.nextRefreshAt).toBeLessThanOrEqual(clock.at + 2 * HOUR * 1.1);
    expect(lists.isReady()).toBe(true);
    // Past NextUpdate plus grace with no fresher list: stale, not ready.
    clock.at = nextUpdate + HOUR + 1;
    expect(lists.status()[0]).toMatchObject({ state: 'stale' });
    expect(lists.isReady()).toBe(false);
    lists.close();
    expect(lists.status()[0]!.nextRefreshAt).toBeUndefined();
    clock.at = Date.now();
  });

  it('a list that failed to load reports failed, with its retry scheduled and no staleAt', async () => {
    const lists = trustLists({ sources: [`tl:${folder.write('present.xml', '').replace(/present\.xml$/, 'missing.xml')}`], signers: [signer.pem], clock, refresh: { minIntervalMs: 60_000, maxIntervalMs: DAY, retryMs: 60_000 } });
    await lists.ready();
    const [status] = lists.status();
    expect(status).toMatchObject({ state: 'failed', error: { code: expect.stringMatching(/^trust_list\./) } });
    expect(status!.staleAt).toBeUndefined();
    expect(status!.nextRefreshAt).toBeGreaterThanOrEqual(clock.at + 60_000);
    expect(status!.nextRefreshAt).toBeLessThanOrEqual(clock.at + 66_000);
    expect(lists.isReady()).toBe(false);
    lists.close();
  });
});
