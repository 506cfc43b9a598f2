import { AuthorizerError, isAuthorizerError } from '../errors/authorizer-error.js';
import type { CoreResponse, CoreResponseStream } from '../wire/core-request.js';
import { readBodyWithLimit } from './read-body.js';
import { pathBelowMount, type BridgedRequest } from './serve.js';

export interface FetchMount {
  /** Path below the mount point, when the host routed it (Hono's sub-app); else `basePath` is stripped. */
  path?: string;
  /** Prefix to strip from the URL path; a request outside it answers 404. */
  basePath?: string;
  /** The body as sent, when a host middleware already consumed the request's own stream (Hono's body cache). */
  consumedBody?: () => Promise<BodyInit>;
}

/** A web Request as `serve()` takes it: the body is read (capped) only when the core asks for it. */
export function fromFetchRequest(request: Request, mount: FetchMount = {}): BridgedRequest {
  const url = new URL(request.url);
  const below = mount.path ?? pathBelowMount(url.pathname, mount.basePath ?? '');
  // The error the upload stream itself failed with: a broken upload is the client's doing, also
  // on hosts whose Request signal is not tied to the connection.
  let uploadFailure: { error: unknown } | undefined;
  return {
    method: request.method,
    // Outside the mount the full path decides the error format, as routing would.
    path: below ?? url.pathname,
    clientWentAway: (error) => request.signal.aborted || (uploadFailure !== undefined && uploadFailure.error === error),
    async read(limit) {
      if (below === null) throw new AuthorizerError('request.route_not_found');
      // Refuse early when the declared size is already over the cap.
      if (Number(request.headers.get('content-length') ?? '0') > limit) throw new AuthorizerError('request.body_too_large');
      // GET/HEAD carry no body; not touching request.body spares @hono/node-server a full Request.
      const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
      const source = !hasBody ? null : mount.consumedBody ? new Response(await mount.consumedBody()).body : request.body;
      let bytes: Uint8Array;
      try {
        bytes = await readBodyWithLimit(source, limit);
      } catch (error) {
        if (!isAuthorizerError(error)) uploadFailure = { error };
        throw error;
      }
      return {
        method: request.method,
        path: below,
        query: url.searchParams,
        headers: request.headers,
        ...(bytes.byteLength > 0 ? { body: { kind: 'bytes' as const, bytes } } : {}),
      };
    },
  };
}

export function toFetchResponse(response: CoreResponse): Response {
  const headers = new Headers();
  for (const [name, value] of response.headers) headers.append(name, value); // Set-Cookie stays separate
  return new Response(response.stream ? toReadableStream(response.stream) : response.body || null, { status: response.status, headers });
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
