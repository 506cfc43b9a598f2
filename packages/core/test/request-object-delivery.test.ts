// The per-instance request-object delivery policy (openId4vp.requestObject): allowed methods and
// single fetch, over HTTP on the memory store.
import { afterEach, describe, expect, it } from 'vitest';
import { createDcqlAuthorization, startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
afterEach(() => env?.close());

async function start(requestObject: Record<string, unknown>) {
  env = await startAuthorizer({
    instance: { config: { openId4vp: { redirectUri: 'https://rp.example/callback', requestObject: requestObject as never } } },
  });
  const { json } = await createDcqlAuthorization(env.api);
  const url = new URL(json.authorizeUrl!.replace(/^[a-z0-9+.-]+:\/\//i, 'https://wallet.invalid/'));
  return { requestUri: url.searchParams.get('request_uri')!, requestUriMethod: url.searchParams.get('request_uri_method'), id: json.authorizationId! };
}
const post = (uri: string) => fetch(uri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
const status = async (id: string) => ((await (await env.api(`/openid4/vp/v1_0/authorizations/${id}/status`)).json()) as { status: string }).status;

describe('request-object delivery policy', () => {
  it('by default serves GET and POST again and again, and the authorizeUrl asks for POST', async () => {
    const { requestUri, requestUriMethod } = await start({});
    expect(requestUriMethod).toBe('post');
    expect((await post(requestUri)).status).toBe(200);
    expect((await fetch(requestUri)).status).toBe(200);
    expect((await post(requestUri)).status).toBe(200);
  });

  it('GET only: POST answers 405 in the wallet error format with an Allow header, and the authorizeUrl leaves request_uri_method out', async () => {
    const { requestUri, requestUriMethod, id } = await start({ methods: ['GET'] });
    expect(requestUriMethod).toBeNull();
    const refused = await post(requestUri);
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe('GET');
    expect(await refused.json()).toEqual({ error: 'invalid_request', error_description: expect.stringMatching(/GET only/) });
    expect(await status(id)).toBe('created');
    expect((await fetch(requestUri)).status).toBe(200);
  });

  it('POST only: GET (and HEAD) answer 405, POST is served', async () => {
    const { requestUri } = await start({ methods: ['POST'] });
    const get = await fetch(requestUri);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    // HEAD is refused by routing, before the instance is known: its Allow is the route's.
    const head = await fetch(requestUri, { method: 'HEAD' });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('GET, POST');
    expect((await post(requestUri)).status).toBe(200);
  });

  it('single fetch: the second fetch answers 400 invalid_request and the authorization stays pending', async () => {
    const { requestUri, id } = await start({ singleFetch: true });
    const first = await post(requestUri);
    expect(first.status).toBe(200);
    const second = await fetch(requestUri);
    expect(second.status).toBe(400);
    expect(await second.json()).toEqual({ error: 'invalid_request', error_description: expect.stringMatching(/already fetched/) });
    expect(await status(id)).toBe('pending');
  });

  it('single fetch under concurrency: exactly one of several simultaneous fetches gets the request object', async () => {
    const { requestUri } = await start({ singleFetch: true });
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(requestUri)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
  });

  it('refuses an invalid policy at construction', async () => {
    await expect(start({ methods: [] })).rejects.toThrow(/at least one method/);
    await expect(start({ methods: ['PUT'] })).rejects.toThrow(/only "GET" and "POST"/);
  });

  it('signs at most 16 request objects per authorization, whatever the wallet_nonce; another authorization has its own share', async () => {
    // Every fetch is signed afresh: without a bound, one request_uri could keep the signer (an HSM) busy.
    const { requestUri, id } = await start({});
    for (let i = 0; i < 16; i++) expect((await fetch(`${requestUri}?wallet_nonce=n${i}`)).status).toBe(200);
    const refused = await fetch(`${requestUri}?wallet_nonce=fresh`);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: 'invalid_request', error_description: expect.stringMatching(/more often than a wallet needs/) });
    expect(await status(id)).toBe('pending');
    const other = await createDcqlAuthorization(env.api);
    const otherUri = new URL(other.json.authorizeUrl!.replace(/^[a-z0-9+.-]+:\/\//i, 'https://wallet.invalid/')).searchParams.get('request_uri')!;
    expect((await fetch(otherUri)).status).toBe(200);
  });
});
