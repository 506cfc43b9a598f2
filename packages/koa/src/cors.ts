import type { Middleware } from 'koa';
import { appendVary, corsDecision, resolveCorsSource, type CorsSource } from '@vp-authorizer/core/http';

/**
 * CORS for Koa from the `cors` configuration object (validated here, at construction:
 * `credentials: true` with origin `"*"` throws a ConfigError). Disabled → a pass-through.
 * Use it before the authorizer: `app.use(cors(config)).use(authorizerMiddleware(a, { prefix }))`.
 */
export function cors(source: CorsSource = {}): Middleware {
  const config = resolveCorsSource(source);
  if (!config.enabled) return (_ctx, next) => next();
  return async (ctx, next) => {
    const decision = corsDecision(config, {
      method: ctx.method,
      origin: ctx.get('Origin') || null,
      accessControlRequestMethod: ctx.get('Access-Control-Request-Method') || null,
      accessControlRequestHeaders: ctx.get('Access-Control-Request-Headers') || null,
    });
    for (const [name, value] of decision.headers) {
      if (name === 'Vary') ctx.vary(value);
      else ctx.set(name, value);
    }
    if (decision.preflight) {
      // Koa strips Content-Length from a 204; write the preflight answer ourselves.
      ctx.respond = false;
      ctx.res.statusCode = 204;
      ctx.res.setHeader('Content-Length', '0');
      ctx.res.end();
      return;
    }
    try {
      await next();
    } catch (error) {
      // Koa's error handler removes every header before rendering; it re-applies err.headers.
      // Merge into the error's own headers: its Vary (any letter case) gets ours appended, not replaced.
      if (error !== null && typeof error === 'object') {
        const carrier = error as { headers?: Record<string, string | string[]> };
        const merged: Record<string, string | string[]> = { ...carrier.headers };
        for (const [name, value] of decision.headers) {
          if (name !== 'Vary') merged[name] = value;
          else {
            const own = Object.keys(merged).filter((key) => key.toLowerCase() === 'vary');
            const vary = appendVary(own.flatMap((key) => merged[key]!), value);
            for (const key of own) delete merged[key];
            merged.Vary = vary;
          }
        }
        carrier.headers = merged;
      }
      throw error;
    }
  };
}
