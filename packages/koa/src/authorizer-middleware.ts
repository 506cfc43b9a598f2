import type { Middleware } from 'koa';
import type { CoreHandler } from '@vp-authorizer/core/http';
import { fromNodeRequest, pathBelowMount, serve, toNodeReadable, writeNodeHead } from '@vp-authorizer/core/http';

export interface AuthorizerMiddlewareOptions {
  /** Path the routes live under, for example '/authz'. Omit when mounted with koa-mount. */
  prefix?: string;
}

/**
 * Serve every authorizer route under `prefix` in a Koa 3 app:
 * `app.use(authorizerMiddleware(authorizer, { prefix: '/authz' }))`. Requests outside the prefix
 * go to the next middleware. Unexpected errors are answered with a bare JSON 500 and then
 * emitted on `app` ('error'), Koa's error path for failures that were already answered.
 */
export function authorizerMiddleware(authorizer: CoreHandler, options: AuthorizerMiddlewareOptions = {}): Middleware {
  const prefix = (options.prefix ?? '').replace(/\/+$/, '');
  return async (ctx, next) => {
    const path = pathBelowMount(ctx.path, prefix);
    if (path === null) return next();
    const { body, rawBody } = ctx.request as { body?: unknown; rawBody?: unknown };
    const { response, failure } = await serve(authorizer, fromNodeRequest(ctx.req, { path, hostBody: { body, rawBody }, originalUrl: ctx.originalUrl }));
    // Headers straight onto the response; status and body through Koa, so its respond() and
    // upstream middleware still see the answer. Never a Response: Koa would fold Set-Cookie lines.
    writeNodeHead(ctx.res, response);
    ctx.status = response.status;
    if (response.stream) ctx.body = toNodeReadable(response.stream);
    else if (response.body) ctx.body = Buffer.from(response.body);
    if (failure) ctx.app.emit('error', failure.error, ctx);
  };
}

