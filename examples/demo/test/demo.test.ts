import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error the demo is plain JavaScript
import { startDemo } from '../demo.mjs';

let demo: { origin: string; apiKey: string; close(): Promise<void> };
beforeAll(async () => {
  demo = await startDemo({ port: 0, env: {} }); // the embedded defaults, whatever the test runner's environment
});
afterAll(() => demo?.close());

describe('the quick-start demo', () => {
  it('serves its page, and the page flow authorizes a PID through the real local verifier', async () => {
    const page = await fetch(`${demo.origin}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('vp-authorizer demo');

    const started = (await (await fetch(`${demo.origin}/demo/start`, { method: 'POST' })).json()) as { authorizationId: string; authorizeUrl: string };
    expect(started.authorizeUrl).toMatch(/^openid4vp:\/\/\?client_id=x509_hash%3A/);
    const presented = (await (await fetch(`${demo.origin}/demo/wallet`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ authorizeUrl: started.authorizeUrl }) })).json()) as { walletGot: number; redirect_uri: string };
    expect(presented.walletGot).toBe(200);
    expect(presented.redirect_uri).toContain(`${demo.origin}/demo/callback?response_code=`);

    const callback = (await (await fetch(presented.redirect_uri)).json()) as { resolved: { status: string }; credentials: { credentials: { claims: Record<string, unknown> }[] } };
    expect(callback.resolved.status).toBe('authorized');
    expect(callback.credentials.credentials[0]!.claims.given_name).toBe('Erika');
    // The code was used once: the same redirect resolves to nothing now.
    const again = (await (await fetch(presented.redirect_uri)).json()) as { resolved: { type?: string } };
    expect(again.resolved.type).toBe('response_code.not_found');
  });

  it('the API refuses calls without the printed key', async () => {
    const res = await fetch(`${demo.origin}/authz/openid4/vp/v1_0/authorizations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401);
  });
});

describe('the demo configured from the environment', () => {
  const KEY = 'demo-env-key-0123456789';
  let configured: { origin: string; close(): Promise<void> };
  beforeAll(async () => {
    configured = await startDemo({
      port: 0,
      env: { AUTHZ_REDIRECT_URI: 'https://rp.example/after-wallet', AUTHZ_API_KEY: KEY, EXPRESS_CORS_ENABLED: 'true', EXPRESS_CORS_ORIGIN: 'http://localhost:5173' },
    });
  });
  afterAll(() => configured?.close());

  it('sends the wallet to AUTHZ_REDIRECT_URI, and the code resolves with AUTHZ_API_KEY', async () => {
    const started = (await (await fetch(`${configured.origin}/demo/start`, { method: 'POST' })).json()) as { authorizationId: string; authorizeUrl: string };
    const presented = (await (await fetch(`${configured.origin}/demo/wallet`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ authorizeUrl: started.authorizeUrl }) })).json()) as { redirect_uri: string };
    const redirect = new URL(presented.redirect_uri);
    expect(`${redirect.origin}${redirect.pathname}`).toBe('https://rp.example/after-wallet');
    const resolved = await fetch(`${configured.origin}/authz/openid4/vp/v1_0/response-code/resolve`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ response_code: redirect.searchParams.get('response_code') }),
    });
    expect(await resolved.json()).toEqual({ authorization_id: started.authorizationId, status: 'authorized' });
  });

  it('answers CORS preflights for EXPRESS_CORS_ORIGIN on the API', async () => {
    const res = await fetch(`${configured.origin}/authz/openid4/vp/v1_0/authorizations`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('vary')).toContain('Origin');
    const refused = await fetch(`${configured.origin}/authz/health`, { headers: { origin: 'https://elsewhere.example' } });
    expect(refused.status).toBe(204);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });
});
