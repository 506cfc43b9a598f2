import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeAuthorizer, listenOnLoopback } from '@vp-authorizer/testing';
import { authorizerRouter } from '../src/index.js';

describe('authorizerRouter', () => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => void (await Promise.all(open.splice(0).map((s) => s.close()))));
  const serve = async (app: express.Express) => {
    const server = await listenOnLoopback(app);
    open.push(server);
    return server.origin;
  };

  it('works inside nested routers (paths relative to the innermost mount)', async () => {
    const fake = createFakeAuthorizer();
    const app = express();
    app.use('/outer', express.Router().use('/authz', authorizerRouter(fake)));
    const origin = await serve(app);
    expect((await fetch(`${origin}/outer/authz/echo?x=1`)).status).toBe(200);
    expect(fake.requests.map((r) => [r.path, r.query.get('x')])).toEqual([['/echo', '1']]);
  });

  it('keeps bytes from express.raw() and text from express.text() as raw bodies, capped', async () => {
    const fake = createFakeAuthorizer({ bodyLimitBytes: 1024 });
    const app = express();
    app.use(express.raw({ type: 'application/x-www-form-urlencoded' }), express.text({ type: 'application/json' }));
    app.use('/authz', authorizerRouter(fake));
    const origin = await serve(app);
    const form = await fetch(`${origin}/authz/echo`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1&b=x+y' });
    expect(await form.json()).toMatchObject({ body: { kind: 'bytes', text: 'a=1&b=x+y' } });
    const json = await fetch(`${origin}/authz/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(await json.json()).toMatchObject({ body: { kind: 'bytes', text: '{"a":1}' } });
    const big = await fetch(`${origin}/authz/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `"${'x'.repeat(4096)}"` });
    expect(big.status).toBe(413);
  });

  it('closes the connection when it hands an error to next(): Express drops the socket afterwards', async () => {
    const app = express();
    app.set('env', 'test');
    app.use('/authz', authorizerRouter(createFakeAuthorizer()));
    const origin = await serve(app);
    const res = await fetch(`${origin}/authz/boom`);
    expect(res.status).toBe(500);
    expect(res.headers.get('connection')).toBe('close');
    expect((await fetch(`${origin}/authz/echo`)).status).toBe(200);
  });
});
