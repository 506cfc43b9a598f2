import { StoreUnavailableError, isStoreUnavailableError } from '../errors/store-unavailable-error.js';
import type { AuthorizationStore } from '../model/authorization-store.js';

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
export async function checkStoreReadiness(store: AuthorizationStore, timeoutMs = READINESS_TIMEOUT_MS): Promise<void> {
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
