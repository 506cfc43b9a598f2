import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { CorsTarget } from '@vp-authorizer/testing';
import { listenOnLoopback } from '@vp-authorizer/testing';
import { authorizerApp, cors } from '../src/index.js';

/** CORS contract target: cors(config) + a native throwing route + the sub-app, with a quiet equivalent of Hono's default error handler. */
export function honoCorsTarget(): CorsTarget {
  return {
    cors: (config) => cors(config as never),
    async start({ prefix, cors: config, authorizer }) {
      const app = new Hono();
      app.use(`${prefix}/*`, cors(config));
      app.get(`${prefix}/native-throw`, () => {
        throw new Error('native route failure');
      });
      app.route(prefix, authorizerApp(authorizer));
      // Hono's default handler, minus its console.error noise.
      app.onError((error, c) => (error instanceof HTTPException ? error.getResponse() : c.text('Internal Server Error', 500)));
      return listenOnLoopback(getRequestListener(app.fetch));
    },
  };
}
