/**
 * The small request object adapters build from their framework's request. The core never sees
 * framework objects, so the same operations run under fetch, Express, Hono and Koa.
 */
export interface CoreRequest {
  method: string;
  /** Path relative to where the authorizer is mounted, starting with `/`. */
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body?: CoreRequestBody;
}

/**
 * `bytes`: the raw body the adapter read (already capped at the body limit).
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
}
