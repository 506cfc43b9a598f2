import express5 from 'express';
import express4 from 'express4';
import type { CorsTarget } from '@vp-authorizer/testing';
import { listenOnLoopback } from '@vp-authorizer/testing';
import { authorizerRouter, cors } from '../src/index.js';

/** CORS contract target: cors(config) + a native throwing route + the router, with Express's default error handler. */
export function expressCorsTarget(framework: typeof express5): CorsTarget {
  return {
    cors: (config) => cors(config as never),
    async start({ prefix, cors: config, authorizer }) {
      const app = framework();
      app.use(prefix, cors(config));
      app.get(`${prefix}/native-throw`, () => {
        throw new Error('native route failure');
      });
      app.use(prefix, authorizerRouter(authorizer));
      // Express's default error handler logs to stderr unless env is 'test'.
      app.set('env', 'test');
      return listenOnLoopback(app);
    },
  };
}

export const express5CorsTarget = (): CorsTarget => expressCorsTarget(express5);
export const express4CorsTarget = (): CorsTarget => expressCorsTarget(express4);
