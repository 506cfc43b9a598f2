import type { RequestHandler } from 'express';
import { corsDecision, resolveCorsConfig, type CorsConfigInput } from '@vp-authorizer/core';

/**
 * CORS for Express from the `cors` configuration object (validated here, at construction:
 * `credentials: true` with origin `"*"` throws a ConfigError). Disabled → a pass-through.
 * Mount it before the router: `app.use('/authz', cors(config), authorizerRouter(authorizer))`.
 */
export function cors(input: CorsConfigInput = {}): RequestHandler {
  const config = resolveCorsConfig(input);
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
