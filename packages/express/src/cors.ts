import type { RequestHandler } from 'express';
import { corsDecision, resolveCorsSource, type CorsSource } from '@vp-authorizer/core/http';

/**
 * CORS for Express from a `cors` configuration object, or from the authorizer (its instances'
 * `config.cors`), validated here, at construction: `credentials: true` with origin `"*"`, or
 * instances that disagree, throw a ConfigError. Disabled → a pass-through.
 * Mount it before the router: `app.use('/authz', cors(authorizer), authorizerRouter(authorizer))`.
 */
export function cors(source: CorsSource = {}): RequestHandler {
  const config = resolveCorsSource(source);
  if (!config.enabled) return (_req, _res, next) => next();
  return (req, res, next) => {
    const decision = corsDecision(config, {
      method: req.method,
      origin: req.get('origin') ?? null,
      accessControlRequestMethod: req.get('access-control-request-method') ?? null,
      accessControlRequestHeaders: req.get('access-control-request-headers') ?? null,
    });
    // Set before the handler runs so they are on error responses too; Vary is appended.
    for (const [name, value] of decision.headers) {
      if (name === 'Vary') res.vary(value);
      else res.setHeader(name, value);
    }
    if (!decision.preflight) return next();
    res.statusCode = 204;
    res.setHeader('Content-Length', '0'); // Safari waits for a body without it
    res.end();
  };
}
