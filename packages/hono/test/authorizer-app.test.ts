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
});
