import { AuthorizerError, isAuthorizerError } from '../errors/authorizer-error.js';
import type { CoreResponse, CoreResponseStream } from '../wire/core-request.js';
import { pumpWebStream } from './read-body.js';
import { mountPathOf, pathBelowMount, type BridgedRequest } from './serve.js';

export interface FetchMount {
  /** Path below the mount point, when the host routed it (Hono's sub-app); else `basePath` is stripped. */
  path?: string;
  /** Prefix to strip from the URL path; a request outside it answers 404. */
  basePath?: string;
  /** The body as sent, when a host middleware already consumed the request's own stream (Hono's body cache). */
  consumedBody?: () => Promise<BodyInit>;
}

/**
 * A web Request as `serve()` takes it: the body is read only when the core asks for it. Only I/O
 * here: `readRequest` (read-body.ts) applies the body limit to what this delivers.
 */
export function fromFetchRequest(request: Request, mount: FetchMount = {}): BridgedRequest {
  const url = splitUrl(request.url);
  const below = mount.path ?? pathBelowMount(url.pathname, mount.basePath ?? '');
  // The error the upload stream itself failed with: a broken upload is the client's doing, also
  // on hosts whose Request signal is not tied to the connection.
  let uploadFailure: { error: unknown } | undefined;
  const pump = async (take: (chunk: Uint8Array) => void) => {
    const source = mount.consumedBody ? new Response(await mount.consumedBody()).body : request.body;
    if (!source) return;
    try {
      await pumpWebStream(source, take);
    } catch (error) {
      if (!isAuthorizerError(error)) uploadFailure = { error };
      throw error;
    }
  };
  return {
    method: request.method,
    // Outside the mount the full path decides the error format, as routing would.
    path: below ?? url.pathname,
    clientWentAway: (error) => request.signal.aborted || (uploadFailure !== undefined && uploadFailure.error === error),
    mountPath: () => (below === null ? undefined : mountPathOf(url.pathname, below)),
    async read() {
      if (below === null) throw new AuthorizerError('request.route_not_found');
      return {
        method: request.method,
        path: below,
        query: new URLSearchParams(url.search),
        headers: request.headers,
        // GET/HEAD carry no body; not touching request.body spares @hono/node-server a full Request.
        ...(request.method !== 'GET' && request.method !== 'HEAD' ? { body: { kind: 'stream' as const, pump } } : {}),
      };
    },
  };
}

/**
 * Path and query of an absolute URL as `Request.url` serialises it (already parsed and normalised
 * by the Request), by slicing the string: a `new URL()` per request costs more than the routing.
 */
function splitUrl(href: string): { pathname: string; search: string } {
  const scheme = href.indexOf('://');
  const start = scheme === -1 ? -1 : href.indexOf('/', scheme + 3);
  if (scheme === -1) {
    const url = new URL(href);
    return { pathname: url.pathname, search: url.search.slice(1) };
  }
  if (start === -1) return { pathname: '/', search: '' };
  let end = href.indexOf('#', start);
  if (end === -1) end = href.length;
  const query = href.indexOf('?', start);
  return query === -1 || query > end ? { pathname: href.slice(start, end), search: '' } : { pathname: href.slice(start, query), search: href.slice(query + 1, end) };
}

/**
 * The core's answer as a web Response. Headers go over as a plain record when no name repeats
 * (hosts such as @hono/node-server then write them without building a Headers object), as pairs
 * when one does (Set-Cookie lines stay separate).
 */
export function toFetchResponse(response: CoreResponse): Response {
  const body = response.stream ? toReadableStream(response.stream) : response.body || null;
  return new Response(body, { status: response.status, headers: headerInit(response.headers) });
}

/**
 * A plain object when every name is distinct: hosts iterate it (for…in, Object.keys) on every
 * answer, and an object literal keeps the fast layout a null-prototype one does not. Any name the
 * prototype already has (`constructor`, `__proto__`) reads as taken, so the pairs go as they are.
 */
function headerInit(pairs: [string, string][]): HeadersInit {
  const record: Record<string, string> = {};
  for (const [name, value] of pairs) {
    const key = name.toLowerCase();
    if (record[key] !== undefined) return pairs;
    record[key] = value;
  }
  return record;
}

/** Pull-based (highWaterMark 0): a chunk is produced only when the host reads; cancel reaches the producer. */
function toReadableStream(stream: CoreResponseStream): ReadableStream<Uint8Array> {
  const chunks = stream[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value));
        } catch (error) {
          stream.cancel();
          controller.error(error);
        }
      },
      cancel() {
        stream.cancel();
      },
    },
    { highWaterMark: 0 },
  );
}
