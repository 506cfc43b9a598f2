import { StoreUnavailableError, isStoreUnavailableError } from '../errors/store-unavailable-error.js';
import { AuthorizerError } from '../errors/authorizer-error.js';
import type { RecordStore } from '../model/authorizer-store.js';
import type { ReadinessCheck } from '../model/readiness-check.js';

/** A readiness probe never waits longer than this for the store (a probe's own timeout is usually 1 s to a few). */
export const READINESS_TIMEOUT_MS = 2_000;

// Read by stores without ping(): an instance id no configuration can produce a record for matters
// not, the answer is ignored; only whether the store answered counts.
const PROBE_INSTANCE = 'vp-authorizer:readiness';
const PROBE_ID = 'probe';

/**
 * Resolves when the store answers a round trip (its `ping()`, else a `get`) within
 * READINESS_TIMEOUT_MS; otherwise throws StoreUnavailableError (→ 503 `store.unavailable`).
 * Any failure counts as unavailable: a custom store may not map its outage to our error class.
 */
export async function checkStoreReadiness(store: RecordStore, timeoutMs = READINESS_TIMEOUT_MS): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreUnavailableError(`The store did not answer the readiness probe within ${timeoutMs} ms.`)), timeoutMs);
  });
  try {
    const probe = store.ping ? store.ping() : store.get(PROBE_INSTANCE, PROBE_ID);
    await Promise.race([probe, deadline]);
  } catch (error) {
    if (isStoreUnavailableError(error)) throw error;
    throw new StoreUnavailableError('The store failed the readiness probe.', { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Resolves when every configured check answers ready within timeoutMs; otherwise throws
 * AuthorizerError `readiness.not_ready` (→ 503) naming the checks that are not, with their details.
 * A check that throws or does not answer counts as not ready; its error is not shown.
 */
export async function checkReadinessChecks(checks: readonly ReadinessCheck[], timeoutMs = READINESS_TIMEOUT_MS): Promise<void> {
  if (checks.length === 0) return;
  const failing = (
    await Promise.all(
      checks.map(async (c): Promise<string | undefined> => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const deadline = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`${c.name}: no answer within ${timeoutMs} ms`), timeoutMs)));
        try {
          const answer = await Promise.race([c.check().then((a) => (a.ready ? undefined : `${c.name}: ${a.detail ?? 'not ready'}`)), deadline]);
          return answer;
        } catch {
          return `${c.name}: the check failed`;
        } finally {
          clearTimeout(timer);
        }
      }),
    )
  ).filter((f): f is string => f !== undefined);
  if (failing.length > 0) throw Object.assign(new AuthorizerError('readiness.not_ready', { message: `Not ready: ${failing.join('; ')}.` }), { retryAfterSeconds: 1 });
}

/** How long one readiness answer (ready or not) is reused, in ms of the authorizer's clock. */
export const READINESS_CACHE_MS = 1_000;

/**
 * Readiness as the anonymous GET /health/ready sees it (the store, then the configured checks):
 * probes arriving together share one store round trip, and its outcome, success or failure, answers every probe of the next
 * READINESS_CACHE_MS. However many probes arrive, the store sees at most one round trip at a time
 * and about one per second.
 */
export class StoreReadiness {
  private inFlight: Promise<void> | undefined;
  private last: { at: number; error?: unknown } | undefined;

  constructor(
    private readonly store: RecordStore,
    private readonly clock: { now(): number },
    private readonly cacheMs = READINESS_CACHE_MS,
    private readonly timeoutMs = READINESS_TIMEOUT_MS,
    private readonly checks: readonly ReadinessCheck[] = [],
  ) {}

  /** Resolves when the store and every check are ready; throws StoreUnavailableError or `readiness.not_ready` otherwise. */
  check(): Promise<void> {
    const last = this.last;
    const now = this.clock.now();
    // A clock that went back does not extend an old answer.
    if (last && now >= last.at && now - last.at < this.cacheMs) return last.error === undefined ? Promise.resolve() : Promise.reject(last.error);
    this.inFlight ??= checkStoreReadiness(this.store, this.timeoutMs)
      .then(() => checkReadinessChecks(this.checks, this.timeoutMs))
      .then(
        () => void (this.last = { at: this.clock.now() }),
        (error: unknown) => {
          this.last = { at: this.clock.now(), error };
          throw error;
        },
      )
      .finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }
}
