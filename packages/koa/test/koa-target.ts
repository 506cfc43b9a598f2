import Koa, { type Middleware } from 'koa';
import { bodyParser } from '@koa/bodyparser';
import type { HttpTarget } from '@vp-authorizer/testing';
import { listenOnLoopback } from '@vp-authorizer/testing';
import { authorizerMiddleware } from '../src/index.js';

/** The HTTP contract target for Koa 3. */
export function koaTarget(): HttpTarget {
  return {
    async start({ prefix, hostBodyParsers, onFrameworkError }) {
      const app = new Koa();
      // A listener replaces Koa's default stderr logger and lets the suite see the error path.
      app.on('error', (error: unknown) => onFrameworkError?.(error));
      let middleware: Middleware | undefined;
      // Limits above the authorizer's: the adapter must enforce bodyLimitBytes on what it parsed.
      if (hostBodyParsers) app.use(bodyParser({ jsonLimit: '10mb', formLimit: '10mb', textLimit: '10mb' }));
      app.use((ctx, next) => (middleware ? middleware(ctx, next) : ((ctx.status = 503), undefined)));
      const listening = await listenOnLoopback(app.callback());
      return { origin: listening.origin, attach: (authorizer) => void (middleware = authorizerMiddleware(authorizer, { prefix })), close: listening.close };
    },
  };
}
