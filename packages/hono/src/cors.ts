import type { Context, MiddlewareHandler } from 'hono';
import { appendVary, corsDecision, resolveCorsSource, type CorsSource } from '@vp-authorizer/core/http';

/**
 * CORS for Hono from the `cors` configuration object (validated here, at construction:
 * `credentials: true` with origin `"*"` throws a ConfigError). Disabled → a pass-through.
 * `app.use('/authz/*', cors(config)); app.route('/authz', authorizerApp(authorizer))`.
 */
export function cors(source: CorsSource = {}): MiddlewareHandler {
  const config = resolveCorsSource(source);
  return async (c, next) => {
    if (!config.enabled) return next();
    const decision = corsDecision(config, {
      method: c.req.method,
      origin: c.req.header('Origin') ?? null,
      accessControlRequestMethod: c.req.header('Access-Control-Request-Method') ?? null,
      accessControlRequestHeaders: c.req.header('Access-Control-Request-Headers') ?? null,
    });
    if (decision.preflight) {
      return new Response(null, { status: 204, headers: [...decision.headers, ['Content-Length', '0']] });
    }
    await next();
    // After next(): c.res is the final answer, error responses from onError included.
    applyTo(c, decision.headers);
  };
}

function applyTo(c: Context, headers: [string, string][]): void {
  const apply = (target: Headers) => {
    for (const [name, value] of headers) {
      // Append to the app's Vary instead of overwriting it; never read the request's Vary.
      if (name === 'Vary') target.set('Vary', appendVary(target.get('Vary'), value));
      else target.set(name, value);
    }
  };
  try {
    apply(c.res.headers);
  } catch {
    // Immutable headers (a Response from fetch()): copy once. Clearing c.res first stops
    // Hono's setter from merging the old headers back over ours.
    const copy = new Response(c.res.body, c.res);
    apply(copy.headers);
    c.res = undefined;
    c.res = copy;
  }
}
