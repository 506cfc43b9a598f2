import type { FastifyPluginCallback } from 'fastify';
import { appendVary, corsDecision, resolveCorsSource, type CorsSource } from '@vp-authorizer/core/http';

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value) ?? null;

/**
 * CORS for Fastify from a `cors` configuration object, or from the authorizer (its instances'
 * `config.cors`), validated here, at construction (a ConfigError otherwise). Returns a plugin
 * whose hook applies to the scope that registers it, like fastify-plugin:
 * `scope.register(cors(authorizer))`. Disabled → no hook at all.
 */
export function cors(source: CorsSource = {}): FastifyPluginCallback {
  const config = resolveCorsSource(source);
  const plugin: FastifyPluginCallback = (scope, _options, done) => {
    if (!config.enabled) return done();
    scope.addHook('onRequest', (request, reply, next) => {
      const { headers } = request;
      const decision = corsDecision(config, {
        method: request.method,
        origin: one(headers.origin),
        accessControlRequestMethod: one(headers['access-control-request-method']),
        accessControlRequestHeaders: one(headers['access-control-request-headers']),
      });
      // On the node response itself: kept by Fastify's own answers (error handler included) and the authorizer's.
      for (const [name, value] of decision.headers) reply.raw.setHeader(name, name === 'Vary' ? appendVary(reply.raw.getHeader(name), value) : value);
      if (!decision.preflight) return next();
      reply.hijack();
      reply.raw.writeHead(204, { 'Content-Length': '0' }).end(); // Safari waits for a body without it
    });
    done();
  };
  return Object.assign(plugin, { [Symbol.for('skip-override')]: true });
}
