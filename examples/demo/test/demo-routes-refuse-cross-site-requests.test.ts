// The demo's own routes answer only its own pages: JSON bodies (a cross-site form or text/plain
// POST needs no preflight), the demo's Origin when one is sent, and the demo's Host (DNS rebinding).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDemo, startDemo } from '../demo.mjs';
import { demoClient } from './__fixtures__/demo-client.js';

let demo: RunningDemo;
beforeAll(async () => {
  demo = await startDemo({ port: 0, host: '127.0.0.1', env: {} });
});
afterAll(() => demo?.close());

const POSTS = [
  ['/demo/authorizations', { ask: 'pid' }],
  ['/demo/authorizations/abc/dc-api', { data: {} }],
  ['/demo/wallet/open', { authorizeUrl: 'openid4vp://?client_id=x&request_uri=http%3A%2F%2F127.0.0.1%3A1%2F' }],
  ['/demo/wallet/answer', { handle: 'h', choice: 'valid' }],
  ['/demo/wallet/dc-api', { request: { protocol: 'openid4vp-v1-unsigned', data: {} }, origin: 'http://127.0.0.1' }],
] as const;

describe('the demo\'s routes refuse requests that do not come from its own pages', () => {
  it.each(POSTS)('POST %s without content-type: application/json is a 415', async (path, body) => {
    const call = demoClient(demo.origin);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx']) {
      const answer = await call(path, JSON.stringify(body), { 'content-type': type });
      expect(answer, type).toMatchObject({ status: 415, body: { message: expect.stringContaining('content-type: application/json') } });
    }
    const none = await call(path, JSON.stringify(body), { 'content-type': '' });
    expect(none.status).toBe(415);
  });

  it.each(POSTS)('POST %s from another origin is a 403', async (path, body) => {
    for (const origin of ['https://attacker.example', 'null', `${demo.origin}.attacker.example`]) {
      const answer = await demoClient(demo.origin)(path, body, { origin });
      expect(answer, origin).toMatchObject({ status: 403, body: { message: expect.stringContaining('another origin') } });
    }
  });

  it('a request with a Host the demo does not answer to is a 403 (DNS rebinding), pages included', async () => {
    const port = new URL(demo.origin).port;
    const call = demoClient(demo.origin);
    for (const path of ['/', '/wallet', '/demo/authorizations/abc/status']) {
      expect(await call(path, undefined, { host: `rebound.attacker.example:${port}` }), path).toMatchObject({ status: 403, body: { message: expect.stringContaining('Host') } });
    }
    expect(await call('/demo/authorizations', { ask: 'pid' }, { host: `rebound.attacker.example:${port}`, origin: `http://rebound.attacker.example:${port}` })).toMatchObject({ status: 403 });
    expect((await call('/', undefined, { host: `127.0.0.1:${Number(port) + 1}` })).status).toBe(403);
  });

  it('its own pages pass: same origin, JSON, and the loopback names of its address', async () => {
    const port = new URL(demo.origin).port;
    const call = demoClient(demo.origin);
    expect(await call('/demo/authorizations', { ask: 'pid' }, { origin: demo.origin, 'content-type': 'application/json; charset=utf-8' })).toMatchObject({ status: 201 });
    expect(await call('/demo/authorizations', { ask: 'pid' })).toMatchObject({ status: 201 }); // no Origin: not a browser's cross-site request
    expect((await call('/', undefined, { host: `localhost:${port}` })).status).toBe(200);
    expect(await call('/demo/authorizations', { ask: 'pid' }, { host: `localhost:${port}`, origin: `http://localhost:${port}` })).toMatchObject({ status: 201 });
  });

  it('the authorizer\'s API under /authz keeps its own rules (wallets post forms there)', async () => {
    const answer = await demoClient(demo.origin)('/authz/openid4/vp/v1_0/authorizations/nope/jwt', 'wallet_nonce=x', { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://wallet.example' });
    expect(answer.status).toBe(404);
  });
});
