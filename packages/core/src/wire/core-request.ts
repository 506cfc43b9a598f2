/**
 * What the core reads from request headers: `get` with the semantics of `Headers.get` (names
 * case-insensitive, repeated headers joined with ", "). A WHATWG `Headers` fits; the Node bridge
 * passes a plain reader over `rawHeaders` so no `Headers` object is built per request.
 */
export interface RequestHeaders {
  get(name: string): string | null;
}

/**
 * The small request object adapters build from their framework's request. The core never sees
 * framework objects, so the same operations run under fetch, Express, Hono, Koa and Fastify.
 */
export interface CoreRequest {
  method: string;
  /** Path relative to where the authorizer is mounted, starting with `/`. */
  path: string;
  query: URLSearchParams;
  headers: RequestHeaders;
  body?: CoreRequestBody;
}

/**
 * `bytes`: the raw body the adapter read (already capped at the body limit: serve() does it for
 * the bridges; handle() measures nothing).
 * `parsed`: a host body parser consumed the stream first (express.json/urlencoded,
 * koa bodyparser); the core re-interprets it according to the Content-Type header.
 */
export type CoreRequestBody = { kind: 'bytes'; bytes: Uint8Array } | { kind: 'parsed'; value: unknown };

export interface CoreResponse {
  status: number;
  /** Header pairs; a name may repeat (for example Set-Cookie). */
  headers: [string, string][];
  /** UTF-8 text (JSON or a compact JWT); absent for empty bodies. */
  body?: string;
  /**
   * A body produced over time (Server-Sent Events), never together with `body`. Bridges write
   * each chunk as it comes (no buffering, no Content-Length) and call `cancel()` once the client
   * goes away, so the producer's timers and listeners end with the connection.
   */
  stream?: CoreResponseStream;
}

/** Chunks of UTF-8 text, pulled one at a time by the writer (the producer never runs ahead). */
export interface CoreResponseStream extends AsyncIterable<string> {
  /** Stop producing and release what the stream holds; a pending `next()` ends as done. Idempotent. */
  cancel(): void;
}

export interface HandleOptions {
  /**
   * Called with unexpected errors (after a JSON 500 was produced) so hosts can report them; in
   * addition to the authorizer's configured `onError`, never instead of it.
   */
  onError?(error: unknown): void;
}

/** What serving HTTP needs from an authorizer (a real one, or a stand-in in adapter tests). */
export interface CoreHandler {
  /** Serve one request given as the core's request object. Never throws. */
  handle(request: CoreRequest, options?: HandleOptions): Promise<CoreResponse>;
  /** Body cap serve() applies to what the bridges deliver. */
  readonly bodyLimitBytes: number;
  /** The handler's own reporter, for unexpected failures serve() meets outside `handle()`. */
  readonly reportError?: (error: unknown) => void;
  /** Told the path the host mounted the handler at (the request's path above the routed one); warns once when it is not publicBaseUrl's path. */
  readonly checkMountPath?: (mountPath: string) => void;
}
