import Koa from 'koa';
import type { CorsTarget } from '@vp-authorizer/testing';
import { listenOnLoopback } from '@vp-authorizer/testing';
import { authorizerMiddleware, cors } from '../src/index.js';

/** CORS contract target: cors(config) + a native throwing route + the middleware, with Koa's default error handling. */
export function koaCorsTarget(): CorsTarget {
  return {
    cors: (config) => cors(config as never),
    async start({ prefix, cors: config, authorizer }) {
      const app = new Koa();
      app.silent = true; // Koa's default handler still clears headers and answers; it just does not log.
      app.use(cors(config));
      app.use((ctx, next) => {
        if (ctx.path === `${prefix}/native-throw`) throw new Error('native route failure');
        return next();
      });
      app.use(authorizerMiddleware(authorizer, { prefix }));
      return listenOnLoopback(app.callback());
    },
  };
}
