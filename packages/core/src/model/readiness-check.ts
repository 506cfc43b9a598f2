/**
 * One more thing `GET /health/ready` waits on besides the store (loaded trusted lists, a
 * warmed cache): asked at most once a second, with the store's probe, and bounded by the same
 * 2 s. `detail` is shown to anonymous callers: name what is not ready, never a secret.
 */
export interface ReadinessCheck {
  /** Names the check in the 503 answer (`trust-lists`). */
  name: string;
  check(): Promise<ReadinessAnswer>;
}

export interface ReadinessAnswer {
  ready: boolean;
  /** Why not ready (for example which list is stale); public. */
  detail?: string;
}
