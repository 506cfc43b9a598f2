import { Hono, type HonoRequest } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { basePath, baseRoutePath } from 'hono/route';
import type { IncomingMessage } from 'node:http';
import type { BridgedRequest, CoreHandler } from '@vp-authorizer/core/http';
import { fromFetchRequest, fromNodeRequest, serve, toFetchResponse } from '@vp-authorizer/core/http';

/**
 * A Hono 4 sub-app serving every authorizer route: `app.route('/authz', authorizerApp(authorizer))`.
 * Unexpected errors go to Hono's error path (app.onError) as an HTTPException whose response is
 * a bare JSON 500 (Hono's default handler sends it as is) and whose `cause` is the error.
 */
export function authorizerApp(authorizer: CoreHandler): Hono {
  const app = new Hono();
  app.all('*', async (c) => {
    // Path relative to wherever the sub-app is mounted. A mount as registered ('/authz') is its own
    // text; only one with parameters (':tenant') is resolved against the path by basePath, which
    // keeps a per-request WeakMap entry for it.
    const mount = baseRoutePath(c);
    const path = c.req.path.slice((/[:*]/.test(mount) ? basePath(c) : mount).replace(/\/+$/, '').length) || '/';
    const { response, failure } = await serve(authorizer, bridge(c.req, c.env, path));
    if (failure) throw new HTTPException(500, { res: toFetchResponse(response), cause: failure.error });
    return toFetchResponse(response);
  });
  return app;
}

/**
 * On @hono/node-server (`c.env.incoming`) with the body still unread, the Node bridge reads the
 * request straight from node:http: no WHATWG Request or web stream is built per request. Anywhere
 * else, or once a host middleware read the body (c.req.json()/parseBody()/formData() cache it),
 * the fetch bridge reads the Request.
 */
function bridge(req: HonoRequest, env: unknown, path: string): BridgedRequest {
  const incoming = (env as { incoming?: Partial<IncomingMessage> } | undefined)?.incoming;
  const cached = Object.keys(req.bodyCache).length > 0;
  if (!cached && incoming && Array.isArray(incoming.rawHeaders) && incoming.readableFlowing === null && incoming.readableEnded === false) {
    return fromNodeRequest(incoming as IncomingMessage, { path });
  }
  // Only a request that may carry a body is asked whether it was used (that builds a full Request on node-server).
  const mayHaveBody = req.method !== 'GET' && req.method !== 'HEAD';
  const consumed = cached || (mayHaveBody && req.raw.bodyUsed) ? { consumedBody: () => cachedBody(req) } : {};
  return fromFetchRequest(req.raw, { path, ...consumed });
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
