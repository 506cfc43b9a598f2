import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createFakeAuthorizer } from '@vp-authorizer/testing';
import { authorizerApp } from '../src/index.js';

// Mounting variants beyond the contract's fixed prefix (Hono resolves them without a server).
describe('authorizerApp mounting', () => {
  const pathSeen = async (mount: string, url: string) => {
    const fake = createFakeAuthorizer();
    const app = new Hono().route(mount, authorizerApp(fake));
    const res = await app.request(url);
    return { status: res.status, paths: fake.requests.map((r) => r.path) };
  };

  it('strips a plain prefix', async () => {
    expect(await pathSeen('/authz', '/authz/echo')).toEqual({ status: 200, paths: ['/echo'] });
  });

  it('strips a prefix with parameters', async () => {
    expect(await pathSeen('/tenants/:tenant/authz', '/tenants/acme/authz/echo?x=1')).toEqual({ status: 200, paths: ['/echo'] });
  });

  it('serves from the root when mounted at "/"', async () => {
    expect(await pathSeen('/', '/echo')).toEqual({ status: 200, paths: ['/echo'] });
  });

  it('hands a body a host middleware already consumed with c.req.text()', async () => {
    const fake = createFakeAuthorizer();
    const app = new Hono();
    app.use('*', async (c, next) => {
      await c.req.text();
      await next();
    });
    app.route('/authz', authorizerApp(fake));
    const res = await app.request('/authz/echo', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1&b=x+y' });
    expect(await res.json()).toMatchObject({ body: { kind: 'bytes', text: 'a=1&b=x+y' } });
  });

  it('regression: formData() re-serialised as multipart — a form a host read with c.req.formData() arrives urlencoded', async () => {
    const fake = createFakeAuthorizer();
    const app = new Hono();
    app.use('*', async (c, next) => {
      await c.req.formData();
      await next();
    });
    app.route('/authz', authorizerApp(fake));
    const text = new URLSearchParams({ vp_token: '{"pid":["eyJ.a-b_c.d~"]}', state: 's 1+2&=' }).toString();
    const res = await app.request('/authz/echo', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: text });
    expect(await res.json()).toMatchObject({ body: { kind: 'bytes', text } });
  });

  it('answers 413 with Connection: close on an over-limit declared length, before reading', async () => {
    const app = new Hono().route('/authz', authorizerApp(createFakeAuthorizer({ bodyLimitBytes: 16 })));
    const res = await app.request('/authz/echo', { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '17' }, body: '{"a":"0123456789"}' });
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
  });
});
