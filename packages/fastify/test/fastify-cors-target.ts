import Fastify from 'fastify';
import type { CorsTarget } from '@vp-authorizer/testing';
import { authorizerPlugin, cors } from '../src/index.js';
import { listenFastify } from './fastify-target.js';

/** CORS contract target: cors(config) + a native throwing route + the plugin, in one prefixed scope, with Fastify's default error handler. */
export function fastifyCorsTarget(): CorsTarget {
  return {
    cors: (config) => cors(config as never),
    async start({ prefix, cors: config, authorizer }) {
      const app = Fastify();
      app.register(
        async (scope) => {
          scope.register(cors(config));
          scope.get('/native-throw', async () => {
            throw new Error('native route failure');
          });
          scope.register(authorizerPlugin, { authorizer });
        },
        { prefix },
      );
      return listenFastify(app);
    },
  };
}
