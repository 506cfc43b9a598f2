import { isAuthorizerError } from '../errors/authorizer-error.js';
import type { CoreHandler, CoreResponse, HandleOptions } from '../wire/core-request.js';
import { readRequest, type BridgedCoreRequest } from './read-body.js';
import { failureResponse } from './request-handler.js';

/**
 * One request as a bridge (fetch or Node) hands it to `serve()`: what is known at once, and the
 * rest (query, headers, body) built on demand so an over-limit body is refused before anything else.
 */
export interface BridgedRequest {
  method: string;
  /** Path below the mount point, starting with `/`: decides the error format before routing. */
  path: string;
  /**
   * The request with its body not yet read (a stream), or as a host parser left it. Bridges only
   * do I/O: `serve()` applies the body limit (`readRequest`).
   */
  read(): Promise<BridgedCoreRequest>;
  /** True when `error` only means the client went away (an aborted upload): nothing to report. */
  clientWentAway(error: unknown): boolean;
  /** Where the host mounted the handler: the full path minus `path`; undefined when that cannot be told. */
  mountPath?(): string | undefined;
}

export interface Served {
  response: CoreResponse;
  /** The unexpected error behind a 500, for the host framework's error path (reported once). */
  failure?: { error: unknown };
}

/**
 * Serve one bridged request: read it, hand it to the authorizer, and answer every failure in the
 * format of the path's audience (wallet paths OAuth-style, the rest the relying-party format).
 * Unexpected errors go to `options.onError` and `failure` once; refusals (AuthorizerErrors, 413
 * included) and clients that went away are never reported.
 */
export async function serve(handler: CoreHandler, request: BridgedRequest, options: HandleOptions = {}): Promise<Served> {
  // handle() reports to its own hooks; serve() only keeps the first unexpected error for the host.
  let failure: { error: unknown } | undefined;
  const capture = (error: unknown) => void (failure ??= { error });
  if (handler.checkMountPath && request.mountPath) {
    const mountPath = request.mountPath();
    if (mountPath !== undefined) handler.checkMountPath(mountPath);
  }
  let response: CoreResponse;
  try {
    const read = readRequest(await request.read(), handler.bodyLimitBytes);
    response = await handler.handle(read instanceof Promise ? await read : read, { onError: capture });
  } catch (error) {
    if (!isAuthorizerError(error) && !request.clientWentAway(error)) {
      // handle() never throws, so this failed before it (reading, bridging): its reporter has not seen it.
      guarded(handler.reportError, error);
      capture(error);
    }
    response = failureResponse(error, request);
  }
  if (failure) guarded(options.onError, failure.error);
  // The rest of an oversized upload was never read: ask the host to close rather than drain it.
  if (response.status === 413 && !response.headers.some(([name]) => name.toLowerCase() === 'connection')) response.headers.push(['connection', 'close']);
  return failure ? { response, failure } : { response };
}

/** The host's reporter failing must not turn into an unanswered request. */
function guarded(hook: ((error: unknown) => void) | undefined, error: unknown): void {
  try {
    hook?.(error);
  } catch {
    // ignored on purpose
  }
}

/** The mount point of a request: its full path without the routed path below it; undefined when they do not line up. */
export function mountPathOf(fullPath: string, below: string): string | undefined {
  const full = fullPath.length > 1 ? fullPath.replace(/\/+$/, '') : fullPath;
  const tail = below === '/' ? '' : below;
  return full.endsWith(tail) ? full.slice(0, full.length - tail.length) : undefined;
}

/** The path below `mount` (`/` for the mount point itself), or null when the path is outside it. */
export function pathBelowMount(pathname: string, mount: string): string | null {
  if (!mount) return pathname || '/';
  if (pathname === mount) return '/';
  return pathname.startsWith(mount) && pathname.charCodeAt(mount.length) === 47 /* '/' */ ? pathname.slice(mount.length) : null;
}

/**
 * The path of `url` below its first `depth` segments, for hosts whose router already matched the
 * mount (Fastify's prefix): the mount may match decoded or case-insensitively, so its text is not
 * sliced off, its segments are. Query removed; `/` for the mount point itself.
 */
export function pathBelowSegments(url: string, depth: number): string {
  const end = url.indexOf('?');
  const pathname = end === -1 ? url : url.slice(0, end);
  let at = 0;
  for (let i = 0; i < depth; i++) {
    const next = pathname.indexOf('/', at + 1);
    if (next === -1) return '/';
    at = next;
  }
  return pathname.slice(at) || '/';
}
