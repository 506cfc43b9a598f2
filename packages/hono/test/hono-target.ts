import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Authorizer } from '@vp-authorizer/core';
import type { HttpTarget, HttpTargetMount } from '@vp-authorizer/testing';
import { listenOnLoopback } from '@vp-authorizer/testing';
import { authorizerApp } from '../src/index.js';

/** The HTTP contract target for Hono 4 on @hono/node-server. */
export function honoTarget(): HttpTarget {
  return {
    async start(mount) {
      let app: Hono | undefined;
      const listening = await listenOnLoopback(getRequestListener((request) => (app ? app.fetch(request) : new Response(null, { status: 503 }))));
      // Hono registers routes when mounting: build the host app again for each authorizer.
      return { origin: listening.origin, attach: (authorizer) => void (app = hostApp(authorizer, mount)), close: listening.close };
    },
  };
}

function hostApp(authorizer: Authorizer, { prefix, hostBodyParsers, onFrameworkError }: HttpTargetMount): Hono {
  const app = new Hono();
  if (hostBodyParsers) {
    // What validators and handlers do before ours: read (and cache) the body.
    app.use('*', async (c, next) => {
      const type = c.req.header('content-type') ?? '';
      try {
        if (type.startsWith('application/json')) await c.req.json();
        else if (type.startsWith('application/x-www-form-urlencoded')) await c.req.parseBody();
      } catch {
        // Malformed input is left for the route to refuse.
      }
      await next();
    });
  }
  app.onError((error, c) => {
    onFrameworkError?.(error);
    return error instanceof HTTPException ? error.getResponse() : c.json({ error: 'host error handler' }, 500);
  });
  app.route(prefix, authorizerApp(authorizer));
  return app;
}
