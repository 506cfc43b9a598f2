import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isStoreUnavailableError, type AuthorizationRecord, type AuthorizerStore, type ResponseCodeEntry } from '@vp-authorizer/core';
import { makeTestRecord } from './make-test-record.js';
import type { TestClock } from './test-clock.js';

/** One store under test, fresh for every case. */
export interface StoreContractSubject {
  store: AuthorizerStore;
  /** The clock the store reads, when it accepts one: TTL cases then advance it instead of sleeping. */
  clock?: TestClock;
  /** Runs after each case (close connections, delete keys written under a test prefix). */
  cleanup?(): Promise<void>;
  /**
   * Cuts and restores the store's connection to its engine (e.g. a TCP proxy in between).
   * Required when the factory sets `outages: true`.
   */
  outage?: { down(): Promise<void>; up(): Promise<void> };
}

export interface StoreContractFactory {
  /**
   * Returns a store that holds nothing yet, or whose other content cannot interfere with the
   * case (for a shared engine, use a fresh key prefix per call).
   */
  create(): Promise<StoreContractSubject>;
  /** TTL cases sleep for real (short TTLs) instead of advancing `clock`. For stores that keep time themselves (Redis). */
  realTtl?: boolean;
  /**
   * Every subject comes with `outage`: adds the case that `ping()` rejects with
   * StoreUnavailableError while the engine is cut off and answers again once it is back.
   */
  outages?: boolean;
}

/** Retention long enough never to expire during a case. */
const KEEP_MS = 60_000;
const MINUTE = 60_000;

/**
 * Registers the store contract as vitest `describe`/`it` blocks. Every store shipped with
 * vp-authorizer runs exactly this suite; run it against your own store too.
 *
 * @example
 * ```ts
 * import { createTestClock, describeStoreContract } from '@vp-authorizer/testing';
 *
 * describeStoreContract('myStore', {
 *   async create() {
 *     const clock = createTestClock();
 *     return { store: myStore({ now: () => clock.now() }), clock };
 *   },
 * });
 * ```
 */
export function describeStoreContract(name: string, factory: StoreContractFactory): void {
  describe(`store contract: ${name}`, () => {
    let subject: StoreContractSubject;
    let store: AuthorizerStore;
    // Distinct per case so that stores shared across cases (one engine, one prefix) still isolate.
    let instanceId: string;

    beforeEach(async () => {
      subject = await factory.create();
      store = subject.store;
      instanceId = `contract-${token()}`;
    });

    afterEach(async () => {
      await subject?.cleanup?.();
    });

    const record = (overrides: Partial<AuthorizationRecord> = {}): AuthorizationRecord => makeTestRecord({ instanceId, ...overrides });

    /** TTLs used by the expiry cases and how long to let time pass. */
    const ttl = () =>
      factory.realTtl ? { short: 100, pass: 350, justBefore: undefined } : { short: 1_000, pass: 1_001, justBefore: 999 };

    async function letTimePass(ms: number): Promise<void> {
      if (factory.realTtl) {
        await new Promise((resolve) => setTimeout(resolve, ms));
        return;
      }
      if (subject.clock === undefined) {
        throw new Error(
          `store contract "${name}": TTL cases need either create() to return the store's clock or the factory option realTtl: true.`,
        );
      }
      subject.clock.advance(ms);
    }

    describe('authorizations', () => {
      it('create then get returns an equal record', async () => {
        const input = record();
        await store.create(input, KEEP_MS);
        expect(await store.get(instanceId, input.id)).toEqual(input);
      });

      it('stored records are isolated from later mutation of the input and of returned values', async () => {
        const input = record();
        const expected = structuredClone(input);
        await store.create(input, KEEP_MS);
        input.status = 'authorized';
        input.request.nonce = 'mutated';
        const read = await store.get(instanceId, input.id);
        expect(read).toEqual(expected);
        // A store may return a fresh object or a frozen shared one; a write to any object in it
        // (each one reachable from the record, arrays included) must never reach the store.
        const attempt = (write: () => unknown) => {
          try {
            write();
          } catch (error) {
            expect(error).toBeInstanceOf(TypeError); // frozen
          }
        };
        const visit = (value: unknown): void => {
          if (typeof value !== 'object' || value === null) return;
          const members = Object.values(value);
          if (Array.isArray(value)) attempt(() => value.push('written-after-read'));
          attempt(() => Object.assign(value, { writtenAfterRead: true }));
          for (const [key, member] of Object.entries(value)) if (typeof member === 'string') attempt(() => Object.assign(value, { [key]: `${member}-changed` }));
          members.forEach(visit);
        };
        visit(read);
        expect(await store.get(instanceId, input.id)).toEqual(expected);
      });

      it('create rejects a duplicate id for the same instance and keeps the original', async () => {
        const original = record();
        await store.create(original, KEEP_MS);
        const duplicate = { ...record({ id: original.id }), status: 'pending' as const };
        await expect(store.create(duplicate, KEEP_MS)).rejects.toThrow();
        expect(await store.get(instanceId, original.id)).toEqual(original);
      });

      it('the same id under two instances is two separate records', async () => {
        const mine = record();
        const theirs = record({ id: mine.id, instanceId: `${instanceId}-other`, status: 'pending' });
        await store.create(mine, KEEP_MS);
        await store.create(theirs, KEEP_MS);
        expect(await store.get(instanceId, mine.id)).toEqual(mine);
        expect(await store.get(theirs.instanceId, mine.id)).toEqual(theirs);
      });

      it("get returns null for an unknown id and for another instance's record", async () => {
        const mine = record();
        await store.create(mine, KEEP_MS);
        expect(await store.get(instanceId, token())).toBeNull();
        expect(await store.get(`${instanceId}-other`, mine.id)).toBeNull();
      });

      it('getInAny (optional) returns the record of the first listed instance holding the id, and null when none of them does', async () => {
        // Optional in the contract: a store without it is read once per instance by the core.
        if (store.getInAny === undefined) return;
        const mine = record();
        const theirs = record({ id: mine.id, instanceId: `${instanceId}-other`, status: 'pending' });
        await store.create(mine, KEEP_MS);
        await store.create(theirs, KEEP_MS);
        expect(await store.getInAny([`${instanceId}-none`, instanceId, theirs.instanceId], mine.id)).toEqual(mine);
        expect(await store.getInAny([theirs.instanceId, instanceId], mine.id)).toEqual(theirs);
        expect(await store.getInAny([`${instanceId}-none`], mine.id)).toBeNull();
        expect(await store.getInAny([instanceId, theirs.instanceId], token())).toBeNull();
        expect(await store.getInAny([], mine.id)).toBeNull();
      });
    });

    describe('compare-and-set', () => {
      it('with the current version replaces the record', async () => {
        const created = record();
        await store.create(created, KEEP_MS);
        const next: AuthorizationRecord = { ...created, version: 2, status: 'pending', updatedAt: created.updatedAt + 1 };
        expect(await store.compareAndSet(next, 1)).toBe(true);
        expect(await store.get(instanceId, created.id)).toEqual(next);
        const third: AuthorizationRecord = { ...next, version: 3, status: 'authorized', credentials: [credential()] };
        expect(await store.compareAndSet(third, 2)).toBe(true);
        expect(await store.get(instanceId, created.id)).toEqual(third);
      });

      it('with a stale version returns false and changes nothing', async () => {
        const created = record();
        await store.create(created, KEEP_MS);
        const claimed: AuthorizationRecord = { ...created, version: 2, status: 'pending', responseClaimedAt: created.createdAt + 5 };
        expect(await store.compareAndSet(claimed, 1)).toBe(true);
        const late: AuthorizationRecord = { ...created, version: 2, status: 'rejected', responseClaimedAt: created.createdAt + 9 };
        expect(await store.compareAndSet(late, 1)).toBe(false);
        expect(await store.get(instanceId, created.id)).toEqual(claimed);
      });

      it('on a missing record returns false and creates nothing', async () => {
        const ghost = record({ version: 2 });
        expect(await store.compareAndSet(ghost, 1)).toBe(false);
        expect(await store.get(instanceId, ghost.id)).toBeNull();
      });

      it("cannot reach another instance's record", async () => {
        const mine = record();
        await store.create(mine, KEEP_MS);
        const intruder: AuthorizationRecord = { ...mine, instanceId: `${instanceId}-other`, version: 2, status: 'authorized' };
        expect(await store.compareAndSet(intruder, 1)).toBe(false);
        expect(await store.get(instanceId, mine.id)).toEqual(mine);
        expect(await store.get(intruder.instanceId, mine.id)).toBeNull();
      });

      it('50 concurrent claims of a wallet response from one version: exactly one wins, and its write is kept', async () => {
        const created = record({ status: 'pending' });
        await store.create(created, KEEP_MS);
        const claims = Array.from({ length: 50 }, (_, i): AuthorizationRecord => ({
          ...created,
          version: 2,
          responseClaimedAt: created.createdAt + 1 + i,
        }));
        const results = await Promise.all(claims.map((claim) => store.compareAndSet(claim, 1)));
        const winners = results.flatMap((won, i) => (won ? [i] : []));
        expect(winners).toHaveLength(1);
        expect(await store.get(instanceId, created.id)).toEqual(claims[winners[0]!]);
      });
    });

    // A claim on a wallet response is a lease written with compare-and-set (the core's
    // claim-lease.ts): the holder renews it, another process takes it over once it has run out,
    // and the old holder's late writes must then be refused. No store method of its own.
    describe('claim leases (compare-and-set on the lease)', () => {
      const now = 1_900_000_000_000;
      const claimBy = (base: AuthorizationRecord, holder: string, at: number): AuthorizationRecord => ({
        ...base,
        version: base.version + 1,
        status: 'pending',
        responseClaimedAt: at,
        claimHolder: holder,
        leaseExpiresAt: at + 5_000,
        claimExpiresAt: Math.max(at + 30_000, base.expiresAt),
      });

      it('a renewal moves the lease and keeps the claim indexed at its claim deadline, not at the lease', async () => {
        const open = record({ status: 'pending', expiresAt: now + 10 * MINUTE });
        await store.create(open, KEEP_MS);
        const claimed = claimBy(open, 'holder-a', now);
        expect(await store.compareAndSet(claimed, 1)).toBe(true);
        const renewed: AuthorizationRecord = { ...claimed, version: 3, leaseExpiresAt: now + 10_000 };
        expect(await store.compareAndSet(renewed, 2)).toBe(true);
        expect(await store.get(instanceId, open.id)).toEqual(renewed);
        expect(ids(await store.listDueForExpiry(renewed.leaseExpiresAt!, 1_000))).not.toContain(open.id);
        expect(await store.listDueForExpiry(renewed.claimExpiresAt!, 1_000)).toContainEqual({ instanceId, id: open.id });
      });

      it('takeover after the lease ran out: one of 20 racing takers wins; the old holder can then neither renew nor commit', async () => {
        const open = record({ status: 'pending', expiresAt: now + 10 * MINUTE });
        await store.create(open, KEEP_MS);
        const ofA = claimBy(open, 'holder-a', now);
        expect(await store.compareAndSet(ofA, 1)).toBe(true);
        const later = ofA.leaseExpiresAt!;
        const takers = Array.from({ length: 20 }, (_, i) => claimBy(ofA, `holder-${i}`, later + i));
        const won = await Promise.all(takers.map((taker) => store.compareAndSet(taker, ofA.version)));
        const winners = takers.filter((_, i) => won[i]);
        expect(winners).toHaveLength(1);
        const winner = winners[0]!;
        // The old holder wakes up: its renewal and its decision both carry the version it claimed at.
        expect(await store.compareAndSet({ ...ofA, version: ofA.version + 1, leaseExpiresAt: later + 5_000 }, ofA.version)).toBe(false);
        expect(await store.compareAndSet({ ...ofA, version: ofA.version + 1, status: 'authorized' }, ofA.version)).toBe(false);
        expect(await store.get(instanceId, open.id)).toEqual(winner);
        // The new holder decides.
        const { claimHolder: _holder, leaseExpiresAt: _lease, ...unheld } = winner;
        const decided: AuthorizationRecord = { ...unheld, version: winner.version + 1, status: 'rejected' };
        expect(await store.compareAndSet(decided, winner.version)).toBe(true);
        expect(await store.get(instanceId, open.id)).toEqual(decided);
        expect(ids(await store.listDueForExpiry(winner.claimExpiresAt! + MINUTE, 1_000))).not.toContain(open.id);
      });

      it('a late commit by the old holder racing a takeover: exactly one of the two lands, 25 times over', async () => {
        for (let round = 0; round < 25; round++) {
          const open = record({ status: 'pending', expiresAt: now + 10 * MINUTE });
          await store.create(open, KEEP_MS);
          const ofA = claimBy(open, 'holder-a', now);
          expect(await store.compareAndSet(ofA, 1)).toBe(true);
          const lateCommit: AuthorizationRecord = { ...ofA, version: ofA.version + 1, status: 'authorized' };
          const takeover = claimBy(ofA, 'holder-b', ofA.leaseExpiresAt!);
          const [committed, taken] = await Promise.all([store.compareAndSet(lateCommit, ofA.version), store.compareAndSet(takeover, ofA.version)]);
          expect(Number(committed) + Number(taken)).toBe(1);
          expect(await store.get(instanceId, open.id)).toEqual(committed ? lateCommit : takeover);
        }
      });
    });

    describe('expiry index', () => {
      it('lists a non-terminal record once expiresAt ≤ now, and not before', async () => {
        const due = record({ expiresAt: 1_900_000_000_000 });
        await store.create(due, KEEP_MS);
        expect(ids(await store.listDueForExpiry(due.expiresAt - 1, 1_000))).not.toContain(due.id);
        const listed = await store.listDueForExpiry(due.expiresAt, 1_000);
        expect(listed).toContainEqual({ instanceId, id: due.id });
      });

      it('never lists terminal records', async () => {
        const expiresAt = 1_900_000_000_000;
        const answered = record({ status: 'pending', expiresAt });
        await store.create(answered, KEEP_MS);
        expect(await store.compareAndSet({ ...answered, version: 2, status: 'authorized' }, 1)).toBe(true);
        const bornTerminal = record({ status: 'rejected', expiresAt });
        await store.create(bornTerminal, KEEP_MS);
        const still = record({ status: 'pending', expiresAt });
        await store.create(still, KEEP_MS);
        const listed = ids(await store.listDueForExpiry(expiresAt + MINUTE, 1_000));
        expect(listed).toContain(still.id);
        expect(listed).not.toContain(answered.id);
        expect(listed).not.toContain(bornTerminal.id);
      });

      it('lists a terminal record whose disclosed data is due for erasure once eraseAt ≤ now, and not before', async () => {
        const expiresAt = 1_900_000_000_000;
        const eraseAt = expiresAt + 10 * MINUTE;
        const answered = record({ status: 'pending', expiresAt });
        await store.create(answered, KEEP_MS);
        // The terminal write that starts a retention window (the instance's dataRetention) sets eraseAt.
        expect(await store.compareAndSet({ ...answered, version: 2, status: 'authorized', eraseAt }, 1)).toBe(true);
        expect(ids(await store.listDueForExpiry(eraseAt - 1, 1_000))).not.toContain(answered.id);
        expect(await store.listDueForExpiry(eraseAt, 1_000)).toContainEqual({ instanceId, id: answered.id });
      });

      it('the compare-and-set that erases the data (dropping eraseAt) takes a terminal record off the list', async () => {
        const eraseAt = 1_900_000_000_000;
        const answered = record({ status: 'pending', expiresAt: eraseAt - MINUTE });
        await store.create(answered, KEEP_MS);
        const due: AuthorizationRecord = { ...answered, version: 2, status: 'authorized', eraseAt };
        expect(await store.compareAndSet(due, 1)).toBe(true);
        const { eraseAt: _dropped, ...rest } = due;
        const erased: AuthorizationRecord = { ...rest, version: 3, credentials: [], erasedAt: eraseAt };
        expect(await store.compareAndSet(erased, 2)).toBe(true);
        expect(ids(await store.listDueForExpiry(eraseAt + MINUTE, 1_000))).not.toContain(answered.id);
        expect(await store.get(instanceId, answered.id)).toEqual(erased);
      });

      it('returns at most `limit` candidates', async () => {
        const expiresAt = 1_900_000_000_000;
        const created = Array.from({ length: 5 }, () => record({ expiresAt }));
        for (const r of created) await store.create(r, KEEP_MS);
        expect(await store.listDueForExpiry(expiresAt, 3)).toHaveLength(3);
        const all = ids(await store.listDueForExpiry(expiresAt, 1_000));
        for (const r of created) expect(all).toContain(r.id);
      });

      it('compare-and-set with a later expiresAt moves the record: not listed at the old time, listed at the new', async () => {
        const first = 1_900_000_000_000;
        const later = first + 10 * MINUTE;
        const created = record({ status: 'pending', expiresAt: first });
        await store.create(created, KEEP_MS);
        expect(await store.compareAndSet({ ...created, version: 2, expiresAt: later }, 1)).toBe(true);
        expect(ids(await store.listDueForExpiry(first, 1_000))).not.toContain(created.id);
        expect(ids(await store.listDueForExpiry(later - 1, 1_000))).not.toContain(created.id);
        expect(await store.listDueForExpiry(later, 1_000)).toContainEqual({ instanceId, id: created.id });
      });

      it('lists due records of every instance with their instance id', async () => {
        const expiresAt = 1_900_000_000_000;
        const a = record({ expiresAt });
        const b = record({ expiresAt, instanceId: `${instanceId}-b` });
        await store.create(a, KEEP_MS);
        await store.create(b, KEEP_MS);
        const listed = await store.listDueForExpiry(expiresAt, 1_000);
        expect(listed).toContainEqual({ instanceId: a.instanceId, id: a.id });
        expect(listed).toContainEqual({ instanceId: b.instanceId, id: b.id });
      });

      it('expiry sweep: a due record marked expired leaves the list and keeps its final status', async () => {
        const expiresAt = 1_900_000_000_000;
        const due = record({ status: 'pending', expiresAt });
        await store.create(due, KEEP_MS);
        // What the core's sweep does for each candidate: re-read, then compare-and-set to expired.
        for (const candidate of await store.listDueForExpiry(expiresAt, 1_000)) {
          if (candidate.id !== due.id) continue;
          const current = await store.get(candidate.instanceId, candidate.id);
          expect(current).not.toBeNull();
          const expired: AuthorizationRecord = { ...current!, version: current!.version + 1, status: 'expired' };
          expect(await store.compareAndSet(expired, current!.version)).toBe(true);
        }
        expect(ids(await store.listDueForExpiry(expiresAt + MINUTE, 1_000))).not.toContain(due.id);
        expect((await store.get(instanceId, due.id))?.status).toBe('expired');
      });
    });

    describe('TTL', () => {
      it('a record disappears after its TTL; one with a longer TTL stays', async () => {
        const { short, pass, justBefore } = ttl();
        const brief = record();
        const kept = record();
        await store.create(brief, short);
        await store.create(kept, KEEP_MS);
        if (justBefore !== undefined) {
          await letTimePass(justBefore);
          expect(await store.get(instanceId, brief.id)).toEqual(brief);
          await letTimePass(pass - justBefore);
        } else {
          await letTimePass(pass);
        }
        expect(await store.get(instanceId, brief.id)).toBeNull();
        expect(await store.get(instanceId, kept.id)).toEqual(kept);
        expect(await store.compareAndSet({ ...brief, version: 2 }, 1)).toBe(false);
      });

      it('compare-and-set keeps the TTL (the record still expires)', async () => {
        const { short, pass } = ttl();
        const created = record();
        await store.create(created, short);
        expect(await store.compareAndSet({ ...created, version: 2, status: 'pending' }, 1)).toBe(true);
        await letTimePass(pass);
        expect(await store.get(instanceId, created.id)).toBeNull();
      });

      it('compare-and-set with ttlMs restarts the TTL from now: the record outlives its first TTL, then leaves at the new one', async () => {
        const { short, pass } = ttl();
        const restarted = factory.realTtl ? 700 : 3_000;
        const created = record();
        await store.create(created, short);
        const fetched: AuthorizationRecord = { ...created, version: 2, status: 'pending' };
        expect(await store.compareAndSet(fetched, 1, restarted)).toBe(true);
        await letTimePass(pass);
        expect(await store.get(instanceId, created.id)).toEqual(fetched);
        // A later compare-and-set without ttlMs keeps the restarted TTL.
        const later: AuthorizationRecord = { ...fetched, version: 3, updatedAt: fetched.updatedAt + 1 };
        expect(await store.compareAndSet(later, 2)).toBe(true);
        await letTimePass(restarted);
        expect(await store.get(instanceId, created.id)).toBeNull();
      });

      it('compare-and-set with a shorter ttlMs shortens the TTL; a conflicting one changes nothing', async () => {
        const { short, pass } = ttl();
        const created = record();
        await store.create(created, KEEP_MS);
        expect(await store.compareAndSet({ ...created, version: 6, status: 'expired' }, 5, short)).toBe(false);
        expect(await store.compareAndSet({ ...created, version: 2, status: 'expired' }, 1, short)).toBe(true);
        await letTimePass(pass);
        expect(await store.get(instanceId, created.id)).toBeNull();
      });

      it('a record whose TTL passed is not listed for expiry', async () => {
        const { short, pass } = ttl();
        const expiresAt = 1_900_000_000_000;
        const gone = record({ expiresAt });
        await store.create(gone, short);
        await letTimePass(pass);
        expect(ids(await store.listDueForExpiry(expiresAt, 1_000))).not.toContain(gone.id);
      });

      it('a code disappears after its TTL; one with a longer TTL stays', async () => {
        const { short, pass, justBefore } = ttl();
        const early = codeKey();
        const brief = codeKey();
        const kept = codeKey();
        const value = entry();
        await store.put(early, value, short);
        await store.put(brief, entry(), short);
        await store.put(kept, entry(), KEEP_MS);
        if (justBefore !== undefined) {
          await letTimePass(justBefore);
          expect(await store.consume(early)).toEqual(value);
          await letTimePass(pass - justBefore);
        } else {
          await letTimePass(pass);
        }
        expect(await store.peek(brief)).toBeNull();
        expect(await store.consume(brief)).toBeNull();
        expect(await store.peek(kept)).not.toBeNull();
        expect(await store.consume(kept)).not.toBeNull();
      });
    });

    describe('response codes', () => {
      it('put then consume returns the value once; the second consume gets null', async () => {
        const key = codeKey();
        const value = entry();
        await store.put(key, value, KEEP_MS);
        expect(await store.consume(key)).toEqual(value);
        expect(await store.consume(key)).toBeNull();
      });

      it('200 parallel consumes of one code: exactly one gets it', async () => {
        const key = codeKey();
        const value = entry();
        await store.put(key, value, KEEP_MS);
        const results = await Promise.all(Array.from({ length: 200 }, () => store.consume(key)));
        const hits = results.filter((r) => r !== null);
        expect(hits).toEqual([value]);
      });

      it('consume of an unknown key returns null', async () => {
        expect(await store.consume(codeKey())).toBeNull();
      });

      it('peek reads without consuming, as often as asked; after consume it gets null', async () => {
        const key = codeKey();
        const value = entry();
        await store.put(key, value, KEEP_MS);
        expect(await store.peek(key)).toEqual(value);
        expect(await store.peek(key)).toEqual(value);
        expect(await store.consume(key)).toEqual(value);
        expect(await store.peek(key)).toBeNull();
        expect(await store.peek(codeKey())).toBeNull();
      });

      it('peek returns a copy: changing it does not change the stored entry', async () => {
        const key = codeKey();
        const value = entry();
        await store.put(key, value, KEEP_MS);
        const peeked = await store.peek(key);
        peeked!.authorizationId = 'changed';
        expect(await store.consume(key)).toEqual(value);
      });

      it('peeks racing with 50 consumes do not change who wins: exactly one consume gets the entry', async () => {
        const key = codeKey();
        const value = entry();
        await store.put(key, value, KEEP_MS);
        const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? store.peek(key).then(() => null) : store.consume(key))));
        expect(results.filter((r) => r !== null)).toEqual([value]);
        expect(await store.peek(key)).toBeNull();
      });

      it('codes are isolated by key, also across instances', async () => {
        const hash = token();
        const mine = `${instanceId}:${hash}`;
        const theirs = `${instanceId}-other:${hash}`;
        const mineValue = entry();
        const theirValue: ResponseCodeEntry = { instanceId: `${instanceId}-other`, authorizationId: token() };
        await store.put(mine, mineValue, KEEP_MS);
        await store.put(theirs, theirValue, KEEP_MS);
        expect(await store.consume(mine)).toEqual(mineValue);
        expect(await store.consume(mine)).toBeNull();
        expect(await store.consume(theirs)).toEqual(theirValue);
      });
    });

    // Code keys look like the core's: `<instanceId>:<hash>`.
    const codeKey = (): string => `${instanceId}:${token()}`;
    const entry = (): ResponseCodeEntry => ({ instanceId, authorizationId: token() });

    describe('readiness', () => {
      it('ping answers without writing; a store without ping answers a get of an unknown id (the fallback probe)', async () => {
        const kept = record();
        await store.create(kept, KEEP_MS);
        if (store.ping) await expect(store.ping()).resolves.toBeUndefined();
        else expect(await store.get(instanceId, token())).toBeNull();
        expect(await store.get(instanceId, kept.id)).toEqual(kept);
      });

      if (!factory.outages) return;
      it('ping rejects with StoreUnavailableError while the engine is cut off and answers again after', async () => {
        const { outage } = subject;
        if (!outage) throw new Error(`store contract "${name}": outages is set but create() returned no outage`);
        expect(store.ping, 'a store whose outage the contract can cut must implement ping()').toBeTypeOf('function');
        await outage.down();
        const failure = await store.ping!().then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(isStoreUnavailableError(failure)).toBe(true);
        await outage.up();
        // The client reconnects on its own schedule: ask until it answers (bounded).
        let last: unknown;
        for (let attempt = 0; attempt < 100; attempt++) {
          last = await store.ping!().then(
            () => 'up',
            (error: unknown) => error,
          );
          if (last === 'up') break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(last).toBe('up');
      });
    });
  });
}

const token = (): string => randomBytes(16).toString('base64url');
const ids = (candidates: { id: string }[]): string[] => candidates.map((c) => c.id);

const credential = () => ({
  path: ['pid', 0],
  format: 'dc+sd-jwt',
  credentialType: 'urn:eudi:pid:1',
  claims: { given_name: 'Érika', address: { street_address: 'Hauptstraße 1' }, nationalities: ['DE'] },
});
