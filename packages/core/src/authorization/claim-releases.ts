import type { AuthorizerContext, OwedClaims } from '../runtime/authorizer-context.js';
import type { AuthorizationRecord } from '../model/authorization-record.js';
import { commit } from './transitions.js';

/** A claim this process made and must give back once the store answers again. */
interface OwedRelease {
  instanceId: string;
  id: string;
  /** The version the claimed record has in the store (if the claim landed at all). */
  version: number;
  responseClaimedAt: number;
  claimExpiresAt: number;
  timer?: ReturnType<typeof setTimeout>;
  attempts: number;
}

const RETRY_MS = [100, 250, 500, 1_000, 2_000];

/** Compare-and-set a claimed record back to unclaimed `pending`; null when it changed meanwhile. */
export const releaseClaim = (ctx: AuthorizerContext, claimed: AuthorizationRecord) =>
  commit(ctx, claimed, { responseClaimedAt: undefined, claimExpiresAt: undefined, claimHolder: undefined, leaseExpiresAt: undefined });

const isOurs = (record: AuthorizationRecord, owed: OwedRelease) =>
  record.version === owed.version && record.responseClaimedAt === owed.responseClaimedAt && record.claimExpiresAt === owed.claimExpiresAt;

/**
 * Claims whose release failed because the store was down (or whose claim write had an unknown
 * outcome). The wallet was answered 503 + Retry-After, so its retry must find the record
 * unclaimed: the release is retried in the background until the claim's deadline, and a retry
 * reaching this process first releases it inline. Across processes the background release is
 * what makes the retry succeed; after the deadline the claim ends `error` as any abandoned one.
 */
export class ClaimReleases implements OwedClaims {
  readonly #owed = new Map<string, OwedRelease>();
  #closed = false;

  constructor(private readonly ctx: AuthorizerContext) {}

  /** Remember a claim to give back; `record` is the claimed record as we wrote it. */
  owe(record: Pick<AuthorizationRecord, 'instanceId' | 'id' | 'version' | 'responseClaimedAt' | 'claimExpiresAt'>): void {
    if (this.#closed || record.responseClaimedAt === undefined || record.claimExpiresAt === undefined) return;
    const owed: OwedRelease = { instanceId: record.instanceId, id: record.id, version: record.version, responseClaimedAt: record.responseClaimedAt, claimExpiresAt: record.claimExpiresAt, attempts: 0 };
    const previous = this.#owed.get(key(owed));
    if (previous) clearTimeout(previous.timer);
    this.#owed.set(key(owed), owed);
    this.#schedule(owed);
  }

  /**
   * A response arrived for a record this process still owes a release for: release it now so the
   * response can be claimed. Returns the released record, or the record unchanged.
   */
  async settle(record: AuthorizationRecord): Promise<AuthorizationRecord> {
    const owed = this.#owed.get(key(record));
    if (!owed || !isOurs(record, owed)) return record;
    const released = await releaseClaim(this.ctx, record);
    this.#forget(owed);
    return released ?? record;
  }

  close(): void {
    this.#closed = true;
    for (const owed of this.#owed.values()) clearTimeout(owed.timer);
    this.#owed.clear();
  }

  #schedule(owed: OwedRelease): void {
    const wait = RETRY_MS[Math.min(owed.attempts, RETRY_MS.length - 1)]!;
    owed.timer = setTimeout(() => void this.#attempt(owed), wait);
    owed.timer.unref?.();
  }

  async #attempt(owed: OwedRelease): Promise<void> {
    if (this.#owed.get(key(owed)) !== owed) return;
    owed.attempts++;
    try {
      const stored = await this.ctx.store.get(owed.instanceId, owed.id);
      // Gone, decided, claimed by someone else, or never claimed by us: nothing left to give back.
      if (!stored || !isOurs(stored, owed) || this.ctx.clock.now() >= owed.claimExpiresAt) return this.#forget(owed);
      await releaseClaim(this.ctx, stored);
      this.ctx.log['claim.released']?.({ authorizationId: owed.id, attempts: owed.attempts });
      return this.#forget(owed);
    } catch {
      // Still unreachable: try again until the claim deadline, after which the claim ends `error` by itself.
      if (this.ctx.clock.now() >= owed.claimExpiresAt || this.#closed) return this.#forget(owed);
      this.#schedule(owed);
    }
  }

  #forget(owed: OwedRelease): void {
    clearTimeout(owed.timer);
    if (this.#owed.get(key(owed)) === owed) this.#owed.delete(key(owed));
  }
}

const key = (r: { instanceId: string; id: string }) => `${r.instanceId}\u0000${r.id}`;
