import { Hono, type HonoRequest } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { basePath } from 'hono/route';
import type { CoreHandler } from '@vp-authorizer/core/http';
import { fromFetchRequest, serve, toFetchResponse } from '@vp-authorizer/core/http';

/**
 * A Hono 4 sub-app serving every authorizer route: `app.route('/authz', authorizerApp(authorizer))`.
 * Unexpected errors go to Hono's error path (app.onError) as an HTTPException whose response is
 * a bare JSON 500 (Hono's default handler sends it as is) and whose `cause` is the error.
 */
export function authorizerApp(authorizer: CoreHandler): Hono {
  const app = new Hono();
  app.all('*', async (c) => {
    // Path relative to wherever the sub-app is mounted (basePath resolves ':param' prefixes too).
    const path = c.req.path.slice(basePath(c).replace(/\/+$/, '').length) || '/';
    // A host middleware may have read the body already (c.req.json()/parseBody()/formData() cache it).
    const consumed = c.req.raw.bodyUsed ? { consumedBody: () => cachedBody(c.req) } : {};
    const { response, failure } = await serve(authorizer, fromFetchRequest(c.req.raw, { path, ...consumed }));
    if (failure) throw new HTTPException(500, { res: toFetchResponse(response), cause: failure.error });
    return toFetchResponse(response);
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
