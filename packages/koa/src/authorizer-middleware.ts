import { Readable } from 'node:stream';
import type { Context, Middleware } from 'koa';
import { clientWentAway, refuseDeclaredOverLimit, refuseParsedOverLimit, errorResponse, isAuthorizerError, readBodyWithLimit, type Authorizer, type CoreRequestBody, type CoreResponse } from '@vp-authorizer/core';

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
export function authorizerMiddleware(authorizer: Authorizer, options: AuthorizerMiddlewareOptions = {}): Middleware {
  const prefix = (options.prefix ?? '').replace(/\/+$/, '');
  return async (ctx, next) => {
    const path = ctx.path === prefix ? '/' : ctx.path.startsWith(`${prefix}/`) ? ctx.path.slice(prefix.length) : null;
    if (path === null) return next();
    let failure: { error: unknown } | undefined;
    const onError = (error: unknown) => void (failure = { error });
    let answer: CoreResponse;
    try {
      const headers = new Headers();
      for (let i = 0; i + 1 < ctx.req.rawHeaders.length; i += 2) headers.append(ctx.req.rawHeaders[i]!, ctx.req.rawHeaders[i + 1]!);
      const body = await bodyOf(ctx, authorizer.bodyLimitBytes);
      answer = await authorizer.handle({ method: ctx.method, path, query: new URLSearchParams(ctx.querystring), headers, ...(body ? { body } : {}) }, { onError });
    } catch (error) {
      // The body read throws AuthorizerErrors on purpose (413); a client that hung up is no bug.
      if (!isAuthorizerError(error) && !clientWentAway(ctx.req, error)) onError(error);
      answer = errorResponse(error, 'rp');
    }
    write(ctx, answer);
    if (failure) ctx.app.emit('error', failure.error, ctx);
  };
}

async function bodyOf(ctx: Context, limit: number): Promise<CoreRequestBody | undefined> {
  refuseDeclaredOverLimit(ctx.req, limit); // also when a host parser (with a higher limit) read it
  // "Was the stream consumed" decides, not "is the body set": body parsers set
  // ctx.request.body = {} for types they skip. Unread: read it ourselves, capped.
  const { body, rawBody } = ctx.req.readableEnded ? (ctx.request as { body?: unknown; rawBody?: unknown }) : {};
  // @koa/bodyparser keeps the exact text it parsed: prefer it over the parsed object.
  const text = typeof rawBody === 'string' ? rawBody : typeof body === 'string' || body instanceof Uint8Array ? body : undefined;
  const raw = !ctx.req.readableEnded ? ctx.req : text !== undefined ? Readable.from([text]) : undefined;
  const bytes = raw ? await readBodyWithLimit(raw, limit) : undefined;
  if (bytes) return bytes.byteLength > 0 ? { kind: 'bytes', bytes } : undefined;
  if (body === undefined) return undefined;
  refuseParsedOverLimit(body, ctx.get('Content-Type'), limit); // a parser that kept no raw text, chunked
  return { kind: 'parsed', value: body };
}

function write(ctx: Context, answer: CoreResponse): void {
  ctx.status = answer.status;
  for (const [name, value] of answer.headers) {
    const lower = name.toLowerCase();
    if (lower === 'set-cookie') ctx.append(name, value); // several cookies stay several header lines
    else if (lower === 'vary') ctx.vary(value); // append: keep a CORS `Vary: Origin` set earlier
    else ctx.set(name, value);
  }
  // After a 413, closing stops Node from draining the rest of an oversized upload.
  if (answer.status === 413) ctx.set('Connection', 'close');
  // Never assign a Response: Koa would fold several Set-Cookie headers into one line.
  if (answer.body !== undefined) ctx.body = Buffer.from(answer.body);
}
