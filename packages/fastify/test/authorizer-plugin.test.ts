import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeAuthorizer, rawRequest } from '@vp-authorizer/testing';
import { authorizerPlugin } from '../src/index.js';
import { listenFastify } from './fastify-target.js';

describe('authorizerPlugin', () => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => void (await Promise.all(open.splice(0).map((s) => s.close()))));
  const listen = async (app: ReturnType<typeof Fastify>) => {
    const server = await listenFastify(app);
    open.push(server);
    return server.origin;
  };

  it("reads its bodies itself: the host's JSON parser and its lower bodyLimit never see them", async () => {
    const fake = createFakeAuthorizer({ bodyLimitBytes: 4096 });
    const app = Fastify({ bodyLimit: 16 });
    app.post('/host', async (request) => ({ parsed: request.body }));
    app.register(authorizerPlugin, { prefix: '/authz', authorizer: fake });
    const origin = await listen(app);
    const text = JSON.stringify({ a: 'x'.repeat(100) });
    const res = await fetch(`${origin}/authz/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ body: { kind: 'bytes', text } });
    // The host's own route keeps the host's parser and limit.
    expect((await fetch(`${origin}/host`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text })).status).toBe(413);
  });

  it('applies CORS from its cors option, here the authorizer-style provider, to its routes', async () => {
    const fake = Object.assign(createFakeAuthorizer(), { corsConfig: () => ({ enabled: true, origin: ['https://rp.example'], allowHeaders: [], allowMethods: ['GET', 'POST'], credentials: false, exposeHeaders: [], maxAge: 60 }) });
    const app = Fastify();
    app.register(authorizerPlugin, { prefix: '/authz', authorizer: fake, cors: fake });
    const origin = await listen(app);
    const preflight = await rawRequest(`${origin}/authz/echo`, { method: 'OPTIONS', headers: [['Origin', 'https://rp.example'], ['Access-Control-Request-Method', 'POST']] });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toEqual(['https://rp.example']);
    const actual = await rawRequest(`${origin}/authz/echo`, { headers: [['Origin', 'https://rp.example']] });
    expect(actual.status).toBe(200);
    expect(actual.headers.get('access-control-allow-origin')).toEqual(['https://rp.example']);
  });

  it("leaves errors that are not the authorizer's to the host's error handler", async () => {
    const app = Fastify();
    app.addHook('onRequest', async (request) => {
      if (request.headers['x-fail']) throw Object.assign(new Error('host hook refused'), { statusCode: 418 });
    });
    app.setErrorHandler((error, _request, reply) => reply.code(418).send({ host: (error as Error).message }));
    app.register(authorizerPlugin, { prefix: '/authz', authorizer: createFakeAuthorizer() });
    const origin = await listen(app);
    const res = await fetch(`${origin}/authz/echo`, { headers: { 'x-fail': '1' } });
    expect(res.status).toBe(418);
    expect(await res.json()).toEqual({ host: 'host hook refused' });
  });

  it("lets the host's hooks read the answer's headers (reply.getHeaders() in onResponse), as for its own routes", async () => {
    const app = Fastify();
    const seen = new Promise<Record<string, unknown>>((resolve) => app.addHook('onResponse', async (_request, reply) => resolve({ ...reply.getHeaders() })));
    app.register(authorizerPlugin, { prefix: '/authz', authorizer: createFakeAuthorizer() });
    const origin = await listen(app);
    const res = await fetch(`${origin}/authz/echo`);
    const body = await res.text();
    expect(res.status).toBe(200);
    const headers = await seen;
    expect(headers['content-type']).toBe(res.headers.get('content-type'));
    expect(String(headers['content-length'])).toBe(String(Buffer.byteLength(body)));
  });
});
