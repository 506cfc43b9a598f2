import type { Authorizer } from '@vp-authorizer/core';
import type { CorsSource } from '@vp-authorizer/core/http';

export interface CorsTargetStart {
  /** Path prefix the adapter is mounted under, for example '/authz'. */
  prefix: string;
  /** What the framework's `cors(…)` is built from: a `cors` configuration object, or an authorizer (its instances' `cors`). */
  cors: CorsSource;
  /** What the adapter serves behind the CORS middleware (the suite passes a fake authorizer). */
  authorizer: Authorizer;
}

/** One framework's CORS middleware, as the CORS contract drives it. */
export interface CorsTarget {
  /** Build the middleware only (the suite checks construction-time validation). Must throw on a bad config or an authorizer whose instances disagree. */
  cors(config: unknown): unknown;
  /**
   * Start a server on 127.0.0.1 (random port) with `cors(config)` in front of everything under
   * `prefix`: a framework-native route `GET {prefix}/native-throw` that throws (reaching the
   * framework's default error handling), then the authorizer adapter for the rest of the prefix.
   */
  start(options: CorsTargetStart): Promise<{ origin: string; close(): Promise<void> }>;
}
