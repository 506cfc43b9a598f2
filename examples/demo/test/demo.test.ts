import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error the demo is plain JavaScript
import { startDemo } from '../demo.mjs';

let demo: { origin: string; apiKey: string; close(): Promise<void> };
beforeAll(async () => {
  demo = await startDemo({ port: 0 });
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
