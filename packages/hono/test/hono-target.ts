import { getRequestListener } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Authorizer } from '@vp-authorizer/core';
import type { HttpTarget, HttpTargetMount } from '@vp-authorizer/testing';
import { listenOnLoopback } from '@vp-authorizer/testing';
import { authorizerApp } from '../src/index.js';

export interface HonoTargetOptions {
  /** How the host middleware reads a form body: c.req.parseBody() (default) or c.req.formData(). */
  forms?: 'parseBody' | 'formData';
}

/** The HTTP contract target for Hono 4 on @hono/node-server. */
export function honoTarget(options: HonoTargetOptions = {}): HttpTarget {
  return {
    async start(mount) {
      let app: Hono | undefined;
      const listening = await listenOnLoopback(getRequestListener((request) => (app ? app.fetch(request) : new Response(null, { status: 503 }))));
      // Hono registers routes when mounting: build the host app again for each authorizer.
      return { origin: listening.origin, attach: (authorizer) => void (app = hostApp(authorizer, mount, options)), close: listening.close };
    },
  };
}

function hostApp(authorizer: Authorizer, { prefix, hostBodyParsers, onFrameworkError }: HttpTargetMount, options: HonoTargetOptions): Hono {
  const app = new Hono();
  if (hostBodyParsers) {
    // What validators and handlers do before ours: read (and cache) the body. No size limit.
    const readForm = options.forms === 'formData' ? (c: Context) => c.req.formData() : (c: Context) => c.req.parseBody();
    app.use('*', async (c, next) => {
      const type = c.req.header('content-type') ?? '';
      try {
        if (type.startsWith('application/json')) await c.req.json();
        else if (type.startsWith('application/x-www-form-urlencoded')) await readForm(c);
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
