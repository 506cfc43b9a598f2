/**
 * How many request objects one process signs for one authorization. Every fetch signs afresh (a
 * `wallet_nonce` must be echoed, so nothing can be cached), and the fetch needs no credential: without
 * a bound, whoever holds one `request_uri` could keep the signer busy for every flow — an HSM signs a
 * few hundred to a few thousand times a second. A wallet fetches once, or a few times when it retries.
 */
export const MAX_REQUEST_OBJECT_SIGNATURES = 16;

/** Authorizations whose count one process remembers; past it the least recently fetched is forgotten. */
const TRACKED_AUTHORIZATIONS = 10_000;

/** Per-process counts of request objects signed per authorization (not shared between processes). */
export class RequestObjectSigningBudget {
  readonly #spent = new Map<string, number>();

  /** Spend one signature for the authorization `key`; false once it has had its share. */
  spend(key: string): boolean {
    const spent = this.#spent.get(key) ?? 0;
    if (spent >= MAX_REQUEST_OBJECT_SIGNATURES) return false;
    // Re-inserted, so that the map's order is the order of the last fetch (the oldest goes first).
    this.#spent.delete(key);
    this.#spent.set(key, spent + 1);
    if (this.#spent.size > TRACKED_AUTHORIZATIONS) this.#spent.delete(this.#spent.keys().next().value!);
    return true;
  }
}
