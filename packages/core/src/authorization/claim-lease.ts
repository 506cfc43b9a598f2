import { randomId } from '../crypto/secrets.js';
import { isTerminalStatus, type AuthorizationRecord } from '../model/authorization-record.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import { commit } from './transitions.js';

/**
 * A claim on a wallet response is a lease: the record names the processing that holds it
 * (`claimHolder`, random per claim) and until when (`leaseExpiresAt`, epoch ms). The holder renews
 * it while the validator and verifier work, never past its processing deadline (claim time + the
 * instance's claimGraceMs). Once it has run out, a response for the authorization is claimed
 * afresh by whichever process receives it; every write is a compare-and-set on the record's
 * version, so a holder that was taken over can neither renew nor commit.
 *
 * Built only on `compareAndSet`: any store that passes the store contract holds leases.
 */

/** The members a new claim writes. */
export function claimChanges(record: AuthorizationRecord, now: number, leaseMs: number, claimGraceMs: number) {
  const processingDeadline = now + claimGraceMs;
  return {
    status: 'pending',
    responseClaimedAt: now,
    claimHolder: randomId(12),
    leaseExpiresAt: Math.min(now + leaseMs, processingDeadline),
    // When an abandoned claim ends `error` (what the expiry sweep indexes): not before the
    // processing deadline, nor before the authorization expires, since until then a response
    // may still take the claim over once the lease has run out.
    claimExpiresAt: Math.max(processingDeadline, record.expiresAt),
  } as const;
}

/**
 * Keeps one claim's lease alive while its response is processed. `current` is the record as this
 * holder last wrote it: the terminal commit goes through `settle()`, which waits for a renewal in
 * flight so that the two writes never race each other.
 */
export class LeaseRenewal {
  #current: AuthorizationRecord;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #inFlight: Promise<void> | undefined;
  #stopped = false;
  /** Set once a renewal found the record changed under us: another process took the claim over (or the sweep ended it). */
  lost = false;

  constructor(
    private readonly ctx: AuthorizerContext,
    claimed: AuthorizationRecord,
    private readonly leaseMs: number,
    /** The processing deadline: the lease is never renewed past it. */
    private readonly deadline: number,
  ) {
    this.#current = claimed;
    this.#schedule();
  }

  get current(): AuthorizationRecord {
    return this.#current;
  }

  /** Stop renewing; resolves with the record as this holder last wrote it. */
  async settle(): Promise<AuthorizationRecord> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#inFlight;
    return this.#current;
  }

  /**
   * Commit `changes` as this claim's holder (after `settle()` for the terminal write). A lost
   * compare-and-set is re-read: a record still claimed by this holder at a newer version is our
   * own renewal whose reply was lost (taken as current, and the write tried again); anything else
   * means the claim was taken over or ended, and null is returned.
   */
  async commit(changes: Partial<AuthorizationRecord>): Promise<AuthorizationRecord | null> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const next = await commit(this.ctx, this.#current, changes);
      if (next) return (this.#current = next);
      const stored = await this.ctx.store.get(this.#current.instanceId, this.#current.id);
      const ours = stored && !isTerminalStatus(stored.status) && stored.claimHolder === this.#current.claimHolder && stored.version > this.#current.version;
      if (!ours) break;
      this.#current = stored;
    }
    this.lost = true;
    return null;
  }

  // A third of the lease: two renewals may fail (a slow store) before it runs out.
  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#inFlight = this.#renew().finally(() => {
        this.#inFlight = undefined;
        this.#schedule();
      });
    }, Math.max(1, Math.floor(this.leaseMs / 3)));
    this.#timer.unref?.();
  }

  async #renew(): Promise<void> {
    if (this.#stopped) return;
    const now = this.ctx.clock.now();
    const until = Math.min(now + this.leaseMs, this.deadline);
    const held = this.#current.leaseExpiresAt ?? 0;
    if (held >= this.deadline) {
      this.#stopped = true; // at the processing deadline: nothing left to renew
      return;
    }
    if (until <= held) return; // the clock has not moved on (a manual clock in tests)
    try {
      if (!(await this.commit({ leaseExpiresAt: until }))) this.#stopped = true;
    } catch {
      // The store did not answer: try again at the next tick; the lease may run out meanwhile.
    }
  }
}
