import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthorizerEvent } from '@vp-authorizer/core';
import { API_KEY, createDcqlAuthorization, encryptResponse, fetchRequestObject, makeSdJwt, startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
afterEach(() => env?.close());

describe('events and logs', () => {
  it('emits an event on every status change and on resolve, and logs no secrets', async () => {
    const events: AuthorizerEvent[] = [];
    const lines: string[] = [];
    const log = (fields: Record<string, unknown>, message?: string) => void lines.push(JSON.stringify({ fields, message }));
    env = await startAuthorizer({ onEvent: (e) => void events.push(e), logger: { debug: log, info: log, warn: log, error: log } });
    const { json } = await createDcqlAuthorization(env.api);
    const ro = await fetchRequestObject(json.authorizeUrl!, 'wallet-nonce-xyz');
    const claims = decodeJwt(ro.jwt) as Record<string, string>;
    const sdJwt = await makeSdJwt();
    const response = await encryptResponse(ro.jwt, { vp_token: { pid: [sdJwt] }, state: claims.state });
    // A refused attempt with a wrong state, then the real one.
    await fetch(claims.response_uri!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ error: 'x', state: 'bad' }) });
    const post = await fetch(claims.response_uri!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ response }) });
    const code = new URL(((await post.json()) as { redirect_uri: string }).redirect_uri).searchParams.get('response_code')!;
    await env.api('/openid4/vp/v1_0/response-code/resolve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ response_code: code }) });

    expect(events.map((e) => e.type)).toEqual(['authorization.created', 'authorization.pending', 'authorization.processing', 'authorization.authorized', 'response_code.resolved']);
    expect(events.every((e) => e.authorizationId === json.authorizationId && e.instanceId === 'main')).toBe(true);

    const everything = JSON.stringify(events) + lines.join('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const secret of [API_KEY, code, json.nonce!, claims.state!, 'wallet-nonce-xyz', response, sdJwt.slice(0, 40)]) {
      expect(everything).not.toContain(secret);
    }
  });

  it('a throwing or rejecting event hook does not break the flow', async () => {
    env = await startAuthorizer({ onEvent: () => Promise.reject(new Error('hook down')) });
    const { res } = await createDcqlAuthorization(env.api);
    expect(res.status).toBe(201);
    await env.close();
    env = await startAuthorizer({
      onEvent: () => {
        throw new Error('hook threw');
      },
    });
    expect((await createDcqlAuthorization(env.api)).res.status).toBe(201);
  });
});

describe('expiry', () => {
  it('is applied lazily on read and by the sweep, with one expired event', async () => {
    let now = Date.now();
    const events: AuthorizerEvent[] = [];
    env = await startAuthorizer({ clock: { now: () => now }, onEvent: (e) => void events.push(e) });
    const a = await createDcqlAuthorization(env.api);
    const b = await createDcqlAuthorization(env.api);
    now += 5 * 60_000;
    expect(await env.authorizer.sweepExpired()).toBe(2);
    expect(await env.authorizer.sweepExpired()).toBe(0);
    for (const { json } of [a, b]) {
      expect(await (await env.api(`/openid4/vp/v1_0/authorizations/${json.authorizationId}/status`)).json()).toEqual({ status: 'expired' });
    }
    expect(events.filter((e) => e.type === 'authorization.expired')).toHaveLength(2);
    const c = await createDcqlAuthorization(env.api);
    // Past its expiry, within the minute a never-fetched authorization is still kept after it.
    now += 5 * 60_000 + 30_000;
    expect(await (await env.api(`/openid4/vp/v1_0/authorizations/${c.json.authorizationId}/status`)).json()).toEqual({ status: 'expired' });
    const ro = await fetchRequestObject(c.json.authorizeUrl!);
    expect(ro.res.status).toBe(400);
  });
});
