import { AuthorizerError } from '../errors/authorizer-error.js';
import type { CoreRequest, CoreResponse } from './core-request.js';
import { readBodyWithLimit } from './read-body.js';

/** Web Request → CoreRequest: strip the base path, read the body up to the limit. */
export async function fromFetchRequest(request: Request, basePath: string, limit: number): Promise<CoreRequest> {
  const url = new URL(request.url);
  let path = url.pathname;
  if (basePath) {
    if (path !== basePath && !path.startsWith(`${basePath}/`)) throw new AuthorizerError('request.route_not_found');
    path = path.slice(basePath.length) || '/';
  }
  const declared = Number(request.headers.get('content-length') ?? '0');
  // Refuse early when the declared size is already over the cap.
  if (declared > limit) throw new AuthorizerError('request.body_too_large');
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== null;
  const bytes = hasBody ? await readBodyWithLimit(request.body, limit) : undefined;
  return {
    method: request.method,
    path,
    query: url.searchParams,
    headers: request.headers,
    ...(bytes && bytes.byteLength > 0 ? { body: { kind: 'bytes' as const, bytes } } : {}),
  };
}

export function toFetchResponse(response: CoreResponse): Response {
  const headers = new Headers();
  for (const [name, value] of response.headers) headers.append(name, value);
  return new Response(response.body ?? null, { status: response.status, headers });
}
