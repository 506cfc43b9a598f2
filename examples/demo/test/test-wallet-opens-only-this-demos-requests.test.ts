// The test wallet runs inside the demo's server: it fetches a request_uri only under the demo's
// own authorizer, so a page cannot make the server fetch (and read back) an internal address.
import { type Server, createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDemo, startDemo } from '../demo.mjs';
import { demoClient } from './__fixtures__/demo-client.js';

const SECRET = 'INTERNAL-SECRET token=4f1c2e';

let demo: RunningDemo;
let internal: Server;
let internalOrigin: string;
const internalHits: string[] = [];

beforeAll(async () => {
  // A server only the machine can reach, answering a secret with a 403.
  internal = createServer((req, res) => {
    internalHits.push(req.url ?? '');
    res.writeHead(403, { 'content-type': 'text/plain' }).end(SECRET);
  });
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  internalOrigin = `http://127.0.0.1:${(internal.address() as { port: number }).port}`;
  demo = await startDemo({ port: 0, env: {} });
});
afterAll(async () => {
  await demo?.close();
  await new Promise((resolve) => internal?.close(resolve));
});

const authorizeUrl = (requestUri: string) => `openid4vp://?client_id=x509_hash%3Aabc&request_uri=${encodeURIComponent(requestUri)}&request_uri_method=post`;

describe('the demo test wallet opens only this demo\'s requests', () => {
  it.each([
    ['an internal server', () => `${internalOrigin}/admin`],
    ['the demo\'s own origin outside the authorizer', () => `${demo.origin}/demo/callback`],
    ['a path that leaves the authorizer through ..', () => `${demo.publicBaseUrl}/../demo/callback`],
    ['a path that leaves it through encoded dots', () => `${demo.publicBaseUrl}/%2e%2e/demo/callback`],
    ['a prefix of the base path without its slash', () => `${demo.publicBaseUrl}x/openid4/vp/v1_0/authorizations/a/jwt`],
    ['credentials in the URL', () => `${demo.publicBaseUrl.replace('http://', 'http://user:pass@')}/openid4/vp/v1_0/authorizations/a/jwt`],
  ])('refuses a request_uri on %s with a 400 and fetches nothing', async (_, requestUri) => {
    const call = demoClient(demo.origin);
    const before = internalHits.length;
    const opened = await call('/demo/wallet/open', { authorizeUrl: authorizeUrl(requestUri()) });
    expect(opened).toMatchObject({ status: 400, body: { message: `This test wallet opens only this demo's requests: the request_uri must start with ${demo.publicBaseUrl}/.` } });
    expect(JSON.stringify(opened.body)).not.toContain('SECRET');
    expect(internalHits.length).toBe(before);
  });

  it('refuses an authorizeUrl without a request_uri', async () => {
    const opened = await demoClient(demo.origin)('/demo/wallet/open', { authorizeUrl: 'openid4vp://?client_id=x509_hash%3Aabc' });
    expect(opened).toMatchObject({ status: 400, body: { message: expect.stringContaining('has no request_uri') } });
  });

  it('still opens the demo\'s own requests, and reports the authorizer\'s refusal in its own words, not its body', async () => {
    const call = demoClient(demo.origin);
    const created = await call('/demo/authorizations', { ask: 'pid' });
    expect(created.status).toBe(201);
    expect(await call('/demo/wallet/open', { authorizeUrl: created.body.authorizeUrl })).toMatchObject({ status: 200, body: { verifier: { verified: true } } });
    // An id the authorizer does not know: its OAuth error_description is shown, nothing else of its answer.
    const unknown = await call('/demo/wallet/open', { authorizeUrl: authorizeUrl(`${demo.publicBaseUrl}/openid4/vp/v1_0/authorizations/nope/jwt`) });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/^The wallet could not read this request: the verifier answered 404: [^{}"]+$/);
  });
});
