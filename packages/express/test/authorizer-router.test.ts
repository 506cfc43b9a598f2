import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeAuthorizer, listenOnLoopback, rawRequest } from '@vp-authorizer/testing';
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

  it('regression: host parser bypassing bodyLimitBytes — express.json()/urlencoded() with a higher limit still get a 413', async () => {
    const fake = createFakeAuthorizer({ bodyLimitBytes: 1024 });
    const app = express();
    app.use(express.json({ limit: '10mb' }), express.urlencoded({ extended: false, limit: '10mb' }));
    app.use('/authz', authorizerRouter(fake));
    const origin = await serve(app);
    const post = (type: string, text: string, streamed: boolean) => {
      const bytes = new TextEncoder().encode(text);
      const body = streamed ? new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(bytes), c.close()) }) : text;
      return fetch(`${origin}/authz/echo`, { method: 'POST', body, duplex: 'half', headers: { 'content-type': type } } as RequestInit);
    };
    for (const streamed of [false, true]) {
      const form = await post('application/x-www-form-urlencoded', `vp_token=${'a'.repeat(2048)}`, streamed);
      expect(form.status, `form, streamed: ${streamed}`).toBe(413);
      expect(form.headers.get('connection')).toBe('close');
      const json = await post('application/json', JSON.stringify({ a: 'a'.repeat(2048) }), streamed);
      expect(json.status, `json, streamed: ${streamed}`).toBe(413);
    }
    expect(fake.requests).toHaveLength(0);
    expect(await (await post('application/json', '{"a":1}', true)).json()).toMatchObject({ body: { kind: 'parsed', value: { a: 1 } } });
  });

  it('regression: res.send() ETag/304 and HEAD length — no ETag, no 304, HEAD keeps the real Content-Length', async () => {
    const app = express();
    app.use('/authz', authorizerRouter(createFakeAuthorizer()));
    const origin = await serve(app);
    const get = await rawRequest(`${origin}/authz/cookies`);
    expect(get.headers.get('etag')).toBeUndefined();
    expect(get.headers.get('set-cookie')).toEqual(['a=1; Path=/', 'b=2; Path=/; HttpOnly']);
    const again = await rawRequest(`${origin}/authz/cookies`, { headers: [['If-None-Match', 'W/"2-vyGp6PvFo4RvsFtPoIWeCReyIC8"']] });
    expect(again.status).toBe(200);
    expect(again.body).toBe(get.body);
    const head = await rawRequest(`${origin}/authz/cookies`, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toEqual([String(Buffer.byteLength(get.body))]);
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
