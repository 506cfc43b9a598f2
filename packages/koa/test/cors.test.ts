import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { headerList, listenOnLoopback, rawRequest } from '@vp-authorizer/testing';
import { cors } from '../src/index.js';

describe('cors (Koa)', () => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => void (await Promise.all(open.splice(0).map((s) => s.close()))));

  it.each([['Vary'], ['vary']])("regression: error Vary replaced — a thrown error's own %s is kept and Origin appended", async (name) => {
    const app = new Koa();
    app.silent = true;
    app.use(cors({ enabled: true, origin: ['https://rp.example'] }));
    app.use(() => {
      throw Object.assign(new Error('not acceptable'), { status: 406, expose: true, headers: { [name]: 'Accept' } });
    });
    const server = await listenOnLoopback(app.callback());
    open.push(server);
    const res = await rawRequest(`${server.origin}/x`, { headers: [['Origin', 'https://rp.example']] });
    expect(res.status).toBe(406);
    expect(headerList(res, 'vary')).toEqual(['Accept', 'Origin']);
    expect(res.headers.get('access-control-allow-origin')).toEqual(['https://rp.example']);
  });
});
