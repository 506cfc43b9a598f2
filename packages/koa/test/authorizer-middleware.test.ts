import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeAuthorizer, listenOnLoopback } from '@vp-authorizer/testing';
import { authorizerMiddleware } from '../src/index.js';

describe('authorizerMiddleware', () => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => void (await Promise.all(open.splice(0).map((s) => s.close()))));
  const serve = async (app: Koa) => {
    const server = await listenOnLoopback(app.callback());
    open.push(server);
    return server.origin;
  };

  it('serves the whole app without a prefix (as under koa-mount)', async () => {
    const fake = createFakeAuthorizer();
    const origin = await serve(new Koa().use(authorizerMiddleware(fake)));
    expect((await fetch(`${origin}/echo`)).status).toBe(200);
    expect(fake.requests.map((r) => r.path)).toEqual(['/echo']);
  });

  it('accepts a trailing slash in the prefix', async () => {
    const fake = createFakeAuthorizer();
    const origin = await serve(new Koa().use(authorizerMiddleware(fake, { prefix: '/authz/' })));
    expect((await fetch(`${origin}/authz/echo`)).status).toBe(200);
    expect(fake.requests.map((r) => r.path)).toEqual(['/echo']);
  });

  it('hands over a parsed body when a parser left no raw text (koa-body style)', async () => {
    const fake = createFakeAuthorizer();
    const app = new Koa();
    app.use(async (ctx, next) => {
      for await (const _ of ctx.req); // consume the stream, keep only a parsed object
      (ctx.request as { body?: unknown }).body = { vp_token: 'x', state: 's' };
      await next();
    });
    const origin = await serve(app.use(authorizerMiddleware(fake, { prefix: '/authz' })));
    const res = await fetch(`${origin}/authz/echo`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'vp_token=x&state=s' });
    expect(await res.json()).toMatchObject({ body: { kind: 'parsed', value: { vp_token: 'x', state: 's' } } });
  });

  it('regression: host parser bypassing bodyLimitBytes — a parsed body (no raw text) over the limit is a 413', async () => {
    const fake = createFakeAuthorizer({ bodyLimitBytes: 1024 });
    const app = new Koa();
    app.use(async (ctx, next) => {
      let text = '';
      for await (const chunk of ctx.req) text += String(chunk); // a parser with a higher limit of its own
      (ctx.request as { body?: unknown }).body = Object.fromEntries(new URLSearchParams(text));
      await next();
    });
    const origin = await serve(app.use(authorizerMiddleware(fake, { prefix: '/authz' })));
    const form = (text: string): RequestInit => {
      // Streamed: no Content-Length, so only the parsed value can be measured.
      const body = new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(new TextEncoder().encode(text)), c.close()) });
      return { method: 'POST', body, duplex: 'half', headers: { 'content-type': 'application/x-www-form-urlencoded' } } as RequestInit;
    };
    const big = await fetch(`${origin}/authz/echo`, form(`vp_token=${'a'.repeat(2048)}`));
    expect(big.status).toBe(413);
    expect(big.headers.get('connection')).toBe('close');
    expect(await big.json()).toMatchObject({ type: 'request.body_too_large' });
    const small = await fetch(`${origin}/authz/echo`, form('vp_token=abc'));
    expect(await small.json()).toMatchObject({ body: { kind: 'parsed', value: { vp_token: 'abc' } } });
  });

  it("emits unexpected errors on the app with the request's context", async () => {
    const fake = createFakeAuthorizer();
    const app = new Koa();
    const seen = new Promise<[unknown, unknown]>((resolve) => app.on('error', (error: unknown, ctx: unknown) => resolve([error, ctx])));
    const origin = await serve(app.use(authorizerMiddleware(fake, { prefix: '/authz' })));
    const res = await fetch(`${origin}/authz/boom`);
    expect(res.status).toBe(500);
    const [error, ctx] = await seen;
    expect(error).toBeInstanceOf(Error);
    expect((ctx as { path: string }).path).toBe('/authz/boom');
  });
});
