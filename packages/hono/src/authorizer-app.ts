import { Hono, type HonoRequest } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { basePath } from 'hono/route';
import { AuthorizerError, errorResponse, isAuthorizerError, readBodyWithLimit, type Authorizer, type CoreResponse } from '@vp-authorizer/core';

/**
 * A Hono 4 sub-app serving every authorizer route: `app.route('/authz', authorizerApp(authorizer))`.
 * Unexpected errors go to Hono's error path (app.onError) as an HTTPException whose response is
 * a bare JSON 500 (Hono's default handler sends it as is) and whose `cause` is the error.
 */
export function authorizerApp(authorizer: Authorizer): Hono {
  const app = new Hono();
  app.all('*', async (c) => {
    let failure: { error: unknown } | undefined;
    const onError = (error: unknown) => void (failure = { error });
    let answer: CoreResponse;
    try {
      // Path relative to wherever the sub-app is mounted (basePath resolves ':param' prefixes too).
      const path = c.req.path.slice(basePath(c).replace(/\/+$/, '').length) || '/';
      // Refuse at once on the declared length: a host middleware may not have read it yet.
      if (Number(c.req.header('content-length') ?? 0) > authorizer.bodyLimitBytes) throw new AuthorizerError('request.body_too_large');
      // A host middleware may have read the body already (c.req.json()/parseBody()/formData() cache it).
      // GET/HEAD carry no body; not touching raw.body spares @hono/node-server a full Request.
      const hasBody = c.req.method !== 'GET' && c.req.method !== 'HEAD';
      const source = !hasBody ? null : c.req.raw.bodyUsed ? new Response(await cachedBody(c.req)).body : c.req.raw.body;
      const bytes = await readBodyWithLimit(source, authorizer.bodyLimitBytes);
      const request = { method: c.req.method, path, query: new URL(c.req.url).searchParams, headers: c.req.raw.headers };
      answer = await authorizer.handle(bytes.byteLength > 0 ? { ...request, body: { kind: 'bytes', bytes } } : request, { onError });
    } catch (error) {
      // The body read throws AuthorizerErrors on purpose (413); a client that hung up is no bug.
      if (!isAuthorizerError(error) && !c.req.raw.signal.aborted) onError(error);
      answer = errorResponse(error, 'rp');
    }
    const headers = new Headers();
    for (const [name, value] of answer.headers) headers.append(name, value); // Set-Cookie stays separate
    if (answer.status === 413) headers.set('Connection', 'close'); // Node would drain the rest of the upload
    const response = new Response(answer.body || null, { status: answer.status, headers });
    if (failure) throw new HTTPException(500, { res: response, cause: failure.error });
    return response;
  });
  return app;
}

/**
 * The body as sent, from Hono's cache. Only a cached FormData (c.req.formData()) is rebuilt, as
 * urlencoded text: c.req.arrayBuffer() would re-serialise it as multipart/form-data.
 */
async function cachedBody(req: HonoRequest): Promise<BodyInit> {
  const cache = req.bodyCache as { [K in keyof typeof req.bodyCache]?: Promise<NonNullable<(typeof req.bodyCache)[K]>> };
  const sent = cache.arrayBuffer ?? cache.text ?? cache.blob;
  if (sent) return sent;
  if (!cache.formData) return req.arrayBuffer();
  const fields: [string, string][] = [];
  (await cache.formData).forEach((value, name) => void (typeof value === 'string' && fields.push([name, value])));
  return new URLSearchParams(fields);
}
