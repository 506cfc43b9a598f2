// One server per framework, with the same shape everywhere: plain routes written the way an
// application on that framework would write them (the framework's own body parsing and JSON
// answers), and optionally an authorizer mounted under `/authz` through its adapter. The node
// server listens before the app is built, so the authorizer knows its public origin.
import { createServer } from 'node:http';

export const FRAMEWORKS = ['express', 'hono', 'koa', 'fastify', 'fetch'];
export const LABELS = { express: 'Express 5', hono: 'Hono 4 (@hono/node-server)', koa: 'Koa 3', fastify: 'Fastify 5', fetch: 'fetch handler (node:http + Request/Response bridge)' };

/**
 * A plain route: `handle({ query, body })` → `{ status, json }` (sent with the framework's JSON
 * helper) or `{ status, text, type }`. `body` is the request body as text (POST only).
 */
export function route(method, path, handle) {
  return { method, path, handle };
}

/**
 * Start `framework` on 127.0.0.1 with `routes` and, when given, `mountAuthorizer(origin)` (returns
 * an authorizer) under `/authz`. Resolves to `{ origin, close }`.
 */
export async function startFramework(framework, { routes = [], authorizerAt } = {}) {
  let listener = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => listener(req, res));
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const authorizer = authorizerAt ? await authorizerAt(origin) : undefined;
  listener = await BUILDERS[framework](routes, authorizer);
  return {
    origin,
    authorizer,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await authorizer?.close?.();
    },
  };
}

const BUILDERS = {
  async express(routes, authorizer) {
    const { default: express } = await import('express');
    const app = express();
    app.set('etag', false);
    app.disable('x-powered-by');
    for (const r of routes) {
      const parse = r.method === 'POST' ? [express.text({ type: '*/*' })] : [];
      app[r.method.toLowerCase()](r.path, ...parse, async (req, res, next) => {
        try {
          send(await r.handle({ query: req.query, body: typeof req.body === 'string' ? req.body : '' }), (s, json) => res.status(s).json(json), (s, text, type) => res.status(s).type(type).send(text));
        } catch (error) {
          next(error);
        }
      });
    }
    if (authorizer) {
      const { authorizerRouter } = await import('@vp-authorizer/express');
      app.use('/authz', authorizerRouter(authorizer));
    }
    return app;
  },

  async hono(routes, authorizer) {
    const { Hono } = await import('hono');
    const { getRequestListener } = await import('@hono/node-server');
    const app = new Hono();
    for (const r of routes) {
      app.on(r.method, r.path, async (c) => {
        const result = await r.handle({ query: c.req.query(), body: r.method === 'POST' ? await c.req.text() : '' });
        return result.json !== undefined ? c.json(result.json, result.status) : c.body(result.text, result.status, { 'content-type': result.type });
      });
    }
    if (authorizer) {
      const { authorizerApp } = await import('@vp-authorizer/hono');
      app.route('/authz', authorizerApp(authorizer));
    }
    return getRequestListener(app.fetch);
  },

  async koa(routes, authorizer) {
    const { default: Koa } = await import('koa');
    const app = new Koa();
    const table = new Map(routes.map((r) => [`${r.method} ${r.path}`, r]));
    app.use(async (ctx, next) => {
      const r = table.get(`${ctx.method} ${ctx.path}`);
      if (!r) return next();
      let body = '';
      if (ctx.method === 'POST') {
        ctx.req.setEncoding('utf8');
        for await (const chunk of ctx.req) body += chunk;
      }
      const result = await r.handle({ query: ctx.query, body });
      ctx.status = result.status;
      if (result.json !== undefined) ctx.body = result.json;
      else {
        ctx.type = result.type;
        ctx.body = result.text;
      }
    });
    if (authorizer) {
      const { authorizerMiddleware } = await import('@vp-authorizer/koa');
      app.use(authorizerMiddleware(authorizer, { prefix: '/authz' }));
    }
    return app.callback();
  },

  async fastify(routes, authorizer) {
    const { default: Fastify } = await import('fastify');
    let handler;
    const app = Fastify({
      serverFactory: (h) => {
        handler = h;
        return createServer(); // never listens: the benchmark's own server hands requests to `handler`
      },
    });
    app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    for (const r of routes) {
      app.route({
        method: r.method,
        url: r.path,
        handler: async (request, reply) => {
          const result = await r.handle({ query: request.query, body: typeof request.body === 'string' ? request.body : JSON.stringify(request.body ?? '') });
          reply.code(result.status);
          if (result.json !== undefined) return result.json;
          reply.type(result.type);
          return result.text;
        },
      });
    }
    if (authorizer) {
      const { authorizerPlugin } = await import('@vp-authorizer/fastify');
      await app.register(authorizerPlugin, { prefix: '/authz', authorizer });
    }
    await app.ready();
    return handler;
  },

  async fetch(routes, authorizer) {
    const table = new Map(routes.map((r) => [`${r.method} ${r.path}`, r]));
    const handle = async (request) => {
      const url = new URL(request.url);
      if (authorizer && (url.pathname === '/authz' || url.pathname.startsWith('/authz/'))) return authorizer.fetch(request);
      const r = table.get(`${request.method} ${url.pathname}`);
      if (!r) return new Response(null, { status: 404 });
      const result = await r.handle({ query: Object.fromEntries(url.searchParams), body: request.method === 'POST' ? await request.text() : '' });
      return result.json !== undefined ? Response.json(result.json, { status: result.status }) : new Response(result.text, { status: result.status, headers: { 'content-type': result.type } });
    };
    return fetchBridge(handle);
  },
};

function send(result, json, text) {
  if (result.json !== undefined) json(result.status, result.json);
  else text(result.status, result.text, result.type);
}

/**
 * The bridge a developer writes to serve a fetch handler from node:http: a Request per request
 * (body buffered), the Response's status, headers and bytes written back.
 */
export function fetchBridge(handle) {
  return async (req, res) => {
    try {
      const chunks = [];
      if (req.method !== 'GET' && req.method !== 'HEAD') for await (const c of req) chunks.push(c);
      const headers = new Headers();
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
      const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url}`, { method: req.method, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) });
      const response = await handle(request);
      const body = Buffer.from(await response.arrayBuffer());
      const out = {};
      response.headers.forEach((value, name) => (out[name] = value));
      if (body.byteLength) out['content-length'] = body.byteLength;
      res.writeHead(response.status, out).end(body);
    } catch {
      if (!res.headersSent) res.writeHead(500).end();
    }
  };
}
