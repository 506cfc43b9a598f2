import Fastify, { type FastifyInstance } from 'fastify';
import type { CoreHandler } from '@vp-authorizer/core/http';
import type { HttpTarget, HttpTargetMount } from '@vp-authorizer/testing';
import { authorizerPlugin } from '../src/index.js';

/** Fastify's own listen(), on 127.0.0.1 with a random port. */
export async function listenFastify(app: FastifyInstance): Promise<{ origin: string; close(): Promise<void> }> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { origin: `http://127.0.0.1:${port}`, close: () => app.close() };
}

/** The HTTP contract target for Fastify 5. */
export function fastifyTarget(): HttpTarget {
  return {
    async start(mount) {
      // Routes are fixed once Fastify is ready; the authorizer, built after the port is known, is reached through this.
      let current: CoreHandler | undefined;
      const late: CoreHandler = {
        get bodyLimitBytes() {
          return current?.bodyLimitBytes ?? 1024;
        },
        handle: async (request, options) => (current ? current.handle(request, options) : { status: 503, headers: [] }),
      };
      const listening = await listenFastify(hostApp(late, mount));
      return { origin: listening.origin, attach: (authorizer) => void (current = authorizer), close: listening.close };
    },
  };
}

function hostApp(authorizer: CoreHandler, { prefix, hostBodyParsers, onFrameworkError }: HttpTargetMount): FastifyInstance {
  // Limits above the authorizer's: the plugin must keep its own (it reads its bodies itself).
  const app = Fastify({ bodyLimit: 10 * 1024 * 1024 });
  if (hostBodyParsers) {
    // Fastify parses JSON itself; add the usual form parser at the root, as hosts do.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))));
  } else {
    app.removeAllContentTypeParsers();
  }
  app.addHook('onError', (_request, _reply, error, done) => {
    onFrameworkError?.(error);
    done();
  });
  app.register(authorizerPlugin, { prefix, authorizer });
  return app;
}
