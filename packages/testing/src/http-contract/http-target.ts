import type { Authorizer } from '@vp-authorizer/core';

/** How the suite asks a target to mount the authorizer. */
export interface HttpTargetMount {
  /** Path prefix to mount under, for example '/authz' (`app.use(prefix, …)`, `app.route(prefix, …)`). */
  prefix: string;
  /**
   * Mount the framework's usual JSON and form body parsers before the adapter (express.json() +
   * express.urlencoded(), @koa/bodyparser, a Hono middleware calling c.req.json()/parseBody()),
   * with a size limit of at least 8 MiB: above the authorizer's, so the suite's 413 cases check
   * that the adapter still enforces `bodyLimitBytes` on a body the host already read.
   */
  hostBodyParsers?: boolean;
  /** Call with every error that reaches the framework's own error path (Express error middleware, Koa 'error' event, Hono onError). */
  onFrameworkError?(error: unknown): void;
}

export interface MountedHttpTarget {
  /** `http://127.0.0.1:<port>`: a real server on a random port. */
  origin: string;
  /** Serve this authorizer from now on (the suite builds it after the port is known). */
  attach(authorizer: Authorizer): void;
  close(): Promise<void>;
}

/** One framework (or the fetch handler) under test. */
export interface HttpTarget {
  start(mount: HttpTargetMount): Promise<MountedHttpTarget>;
  /**
   * Features the host lacks are reported as skipped tests whose names say why (never silently
   * passed). Both default to true; the bare fetch handler has neither.
   */
  features?: { hostBodyParsers?: boolean; errorPath?: boolean };
}
