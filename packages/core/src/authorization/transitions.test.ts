import { describe, expect, it } from 'vitest';
import type { AuthorizerEvent } from '../events/authorizer-event.js';
import type { AuthorizationRecord } from '../model/authorization-record.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import { memoryStore } from '../store/memory-store.js';
import { commit, loadForInstance } from './transitions.js';

const NOW = 1_800_000_000_000;

function pendingRecord(): AuthorizationRecord {
  return {
    id: 'a1',
    instanceId: 'i1',
    version: 1,
    status: 'pending',
    createdAt: NOW - 1000,
    updatedAt: NOW - 1000,
    expiresAt: NOW + 60_000,
    request: { query: { type: 'DCQL', dcql: { credentials: [] } }, responseMode: 'direct_post.jwt', responseType: 'vp_token', nonce: 'n' },
    encryptionKey: { kid: 'k', alg: 'ECDH-ES', publicJwk: { kty: 'EC', kid: 'k', alg: 'ECDH-ES' }, privateJwk: { kty: 'EC', d: 'secret' } },
    responseClaimedAt: NOW - 10,
    claimExpiresAt: NOW + 5000,
    policyResults: [],
    credentials: [],
  };
}

async function setUp() {
  const store = memoryStore({ sweepIntervalMs: 0, clock: { now: () => NOW } });
  const events: AuthorizerEvent[] = [];
  const ctx = { store, instances: new Map(), clock: { now: () => NOW }, emit: (event: AuthorizerEvent) => events.push(event) } as unknown as AuthorizerContext;
  const current = pendingRecord();
  await store.create(current, 60_000);
  return { ctx, store, events, current: (await store.get('i1', 'a1'))! };
}

describe('commit', () => {
  it('removes the members a change sets to undefined, in the answer and in the store', async () => {
    const { ctx, store, current } = await setUp();
    const next = await commit(ctx, current, { responseClaimedAt: undefined, claimExpiresAt: undefined });
    expect(next).not.toBeNull();
    for (const record of [next!, (await store.get('i1', 'a1'))!]) {
      expect(Object.hasOwn(record, 'responseClaimedAt')).toBe(false);
      expect(Object.hasOwn(record, 'claimExpiresAt')).toBe(false);
      expect(record.encryptionKey?.kid).toBe('k'); // still pending: the key stays
      expect(record.version).toBe(2);
    }
  });

  it('drops the encryption key once the status is terminal, and keeps every other member', async () => {
    const { ctx, store, events, current } = await setUp();
    const next = await commit(ctx, current, { status: 'authorized', credentials: [] });
    const stored = (await store.get('i1', 'a1'))!;
    for (const record of [next!, stored]) {
      expect(Object.hasOwn(record, 'encryptionKey')).toBe(false);
      expect(record).toMatchObject({ status: 'authorized', version: 2, updatedAt: NOW, responseClaimedAt: NOW - 10, claimExpiresAt: NOW + 5000 });
      expect(Object.keys(record).sort()).toEqual(Object.keys(current).filter((key) => key !== 'encryptionKey').sort());
    }
    expect(events.map((event) => event.type)).toEqual(['authorization.authorized']);
  });

  it('drops the Annex C recipient key once the status is terminal, and keeps it while pending', async () => {
    const { ctx, store } = await setUp();
    const withAnnexC: AuthorizationRecord = { ...pendingRecord(), id: 'a2', annexC: { encryptionInfo: 'info', privateJwk: { kty: 'EC', d: 'annex-secret' } } };
    delete withAnnexC.encryptionKey;
    await store.create(withAnnexC, 60_000);
    const pending = await commit(ctx, (await store.get('i1', 'a2'))!, { responseClaimedAt: undefined });
    expect(pending!.annexC?.encryptionInfo).toBe('info');
    const done = await commit(ctx, pending!, { status: 'rejected' });
    for (const record of [done!, (await store.get('i1', 'a2'))!]) {
      expect(Object.hasOwn(record, 'annexC')).toBe(false);
      expect(JSON.stringify(record)).not.toContain('annex-secret');
    }
  });

  it('clears members and drops the key in one terminal change', async () => {
    const { ctx, store, current } = await setUp();
    const next = await commit(ctx, current, { status: 'error', responseClaimedAt: undefined, claimExpiresAt: undefined });
    for (const record of [next!, (await store.get('i1', 'a1'))!]) {
      for (const key of ['encryptionKey', 'responseClaimedAt', 'claimExpiresAt']) expect(Object.hasOwn(record, key)).toBe(false);
      expect(record.status).toBe('error');
    }
  });

  it('never changes a terminal record', async () => {
    const { ctx, store, current } = await setUp();
    const terminal = (await commit(ctx, current, { status: 'rejected' }))!;
    expect(await commit(ctx, terminal, { status: 'authorized' })).toBeNull();
    expect((await store.get('i1', 'a1'))!.status).toBe('rejected');
  });

  it('loses to a concurrent change (the version moved on)', async () => {
    const { ctx, current } = await setUp();
    expect(await commit(ctx, current, { status: 'authorized' })).not.toBeNull();
    expect(await commit(ctx, current, { status: 'rejected' })).toBeNull();
  });
});

describe('loadForInstance', () => {
  const ID = 'a1b2c3d4e5f6g7h8';

  it('answers every failure as a rejection, a store that throws synchronously included', async () => {
    const failure = new Error('store down');
    const ctx = { store: { get: () => { throw failure; } }, clock: { now: () => NOW } } as unknown as AuthorizerContext;
    let pending: Promise<unknown> | undefined;
    expect(() => (pending = loadForInstance(ctx, 'i1', ID))).not.toThrow();
    await expect(pending).rejects.toBe(failure);
    // An id the pattern cannot even read (a typed method called from JavaScript) rejects too.
    let odd: Promise<unknown> | undefined;
    expect(() => (odd = loadForInstance(ctx, 'i1', Symbol('id') as unknown as string))).not.toThrow();
    await expect(odd).rejects.toBeInstanceOf(TypeError);
  });

  it('refuses a malformed id without asking the store, and an unknown one after asking', async () => {
    const asked: string[] = [];
    const ctx = { store: { get: async (_instance: string, id: string) => (asked.push(id), null) }, clock: { now: () => NOW } } as unknown as AuthorizerContext;
    await expect(loadForInstance(ctx, 'i1', 'short')).rejects.toMatchObject({ code: 'authorization.not_found' });
    expect(asked).toEqual([]);
    await expect(loadForInstance(ctx, 'i1', ID)).rejects.toMatchObject({ code: 'authorization.not_found' });
    expect(asked).toEqual([ID]);
  });

  it('returns the stored record of that instance when nothing is overdue', async () => {
    const { ctx } = await setUp();
    const store = (ctx as unknown as { store: ReturnType<typeof memoryStore> }).store;
    await store.create({ ...pendingRecord(), id: ID, responseClaimedAt: undefined, claimExpiresAt: undefined }, 60_000);
    await expect(loadForInstance(ctx, 'i1', ID)).resolves.toMatchObject({ id: ID, status: 'pending' });
    await expect(loadForInstance(ctx, 'other', ID)).rejects.toMatchObject({ code: 'authorization.not_found' });
  });
});
