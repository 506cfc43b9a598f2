// HEAD is a safe method (RFC 9110 section 9.2.1): a link scanner or preview bot sending it must not
// change anything. The request object's GET is the one GET with an effect (the first fetch moves
// the authorization from created to pending, emits authorization.pending and, under
// requestObject.singleFetch, uses up the one fetch), so HEAD there answers 405; on every other GET
// route HEAD answers the GET's status and headers without a body.
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthorizerEvent } from '@vp-authorizer/core';
import { createDcqlAuthorization, startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
afterEach(() => env?.close());

async function start(requestObject: Record<string, unknown> = {}) {
  const events: AuthorizerEvent[] = [];
  env = await startAuthorizer({
    onEvent: (e) => void events.push(e),
    instance: { config: { openId4vp: { redirectUri: 'https://rp.example/callback', requestObject: requestObject as never } } },
  });
  const { json } = await createDcqlAuthorization(env.api);
  const url = new URL(json.authorizeUrl!.replace(/^[a-z0-9+.-]+:\/\//i, 'https://wallet.invalid/'));
  return { requestUri: url.searchParams.get('request_uri')!, id: json.authorizationId!, events };
}
const status = async (id: string) => ((await (await env.api(`/openid4/vp/v1_0/authorizations/${id}/status`)).json()) as { status: string }).status;
const post = (uri: string) => fetch(uri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });

describe('HEAD on the request object (…/authorizations/{id}/jwt)', () => {
  it('answers 405 with Allow (no HEAD in it) and no body, leaves the authorization created and emits nothing', async () => {
    const { requestUri, id, events } = await start();
    for (let i = 0; i < 3; i++) {
      const head = await fetch(requestUri, { method: 'HEAD' });
      expect(head.status).toBe(405);
      expect(head.headers.get('allow')).toBe('GET, POST');
      expect(await head.text()).toBe('');
    }
    expect(await status(id)).toBe('created');
    expect(events.map((e) => e.type)).toEqual(['authorization.created']);
    // The wallet's own fetch still makes the first move.
    expect((await fetch(requestUri)).status).toBe(200);
    expect(await status(id)).toBe('pending');
    expect(events.map((e) => e.type)).toEqual(['authorization.created', 'authorization.pending']);
  });

  it('does not use up the single fetch of requestObject.singleFetch', async () => {
    const { requestUri, id } = await start({ singleFetch: true });
    expect((await fetch(requestUri, { method: 'HEAD' })).status).toBe(405);
    expect((await post(requestUri)).status).toBe(200);
    expect(await status(id)).toBe('pending');
  });

  it('does not run the request-object operation at all: an unknown id also answers 405, not 404', async () => {
    await start();
    const head = await fetch(`${env.base}/openid4/vp/v1_0/authorizations/no-such-id/jwt`, { method: 'HEAD' });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('GET, POST');
  });

  it('in process too: authorizer.handle() with HEAD refuses before the operation runs', async () => {
    const { id } = await start({ singleFetch: true });
    const answer = await env.authorizer.handle({ method: 'head', path: `/openid4/vp/v1_0/authorizations/${id}/jwt`, query: new URLSearchParams(), headers: new Headers() });
    expect(answer.status).toBe(405);
    expect(answer.body).toBeUndefined();
    expect(await status(id)).toBe('created');
  });
});

describe('HEAD on GET routes without an effect', () => {
  it('answers the GET status and headers without a body (status, JWKS, metadata, health)', async () => {
    const { id } = await start();
    const rp = { headers: { authorization: 'Bearer test-api-key-main-0001' } };
    for (const [path, init] of [
      [`/openid4/vp/v1_0/authorizations/${id}/status`, rp],
      ['/openid4/vp/v1_0/jwks', {}],
      ['/openid4/vp/v1_0/.well-known/openid-configuration', {}],
      ['/health', {}],
    ] as const) {
      const get = await fetch(`${env.base}${path}`, init);
      const head = await fetch(`${env.base}${path}`, { ...init, method: 'HEAD' });
      expect(head.status, path).toBe(get.status);
      expect(head.headers.get('content-type'), path).toBe(get.headers.get('content-type'));
      expect(await head.text(), path).toBe('');
    }
    expect(await status(id)).toBe('created');
  });

  it('lists HEAD in the Allow of a 405 only where GET is served without an effect', async () => {
    await start();
    const health = await fetch(`${env.base}/health`, { method: 'DELETE' });
    expect(health.status).toBe(405);
    expect(health.headers.get('allow')).toBe('GET, HEAD');
    const jwt = await fetch(`${env.base}/openid4/vp/v1_0/authorizations/x/jwt`, { method: 'DELETE' });
    expect(jwt.status).toBe(405);
    expect(jwt.headers.get('allow')).toBe('GET, POST');
  });
});
