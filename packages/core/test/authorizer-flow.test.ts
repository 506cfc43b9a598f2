import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { createDcqlAuthorization, encryptResponse, fetchRequestObject, makeSdJwt, startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
afterEach(() => env?.close());

describe('full redirect flow through the fetch handler', () => {
  it('create → request object → encrypted response → redirect with code → resolve once', async () => {
    env = await startAuthorizer();
    const { res, json } = await createDcqlAuthorization(env.api);
    expect(res.status).toBe(201);
    expect(Object.keys(json).sort()).toEqual(['authorizationEndpoint', 'authorizationId', 'authorizeUrl', 'expiresAt', 'nonce']);

    const status0 = await (await env.api(`/openid4/vp/v1_0/authorizations/${json.authorizationId}/status`)).json();
    expect(status0).toEqual({ status: 'created' });

    const ro = await fetchRequestObject(json.authorizeUrl!, 'wn-123');
    expect(ro.res.status).toBe(200);
    expect(ro.res.headers.get('content-type')).toBe('application/oauth-authz-req+jwt');
    const claims = decodeJwt(ro.jwt);
    expect(claims.wallet_nonce).toBe('wn-123');
    expect(claims.client_id).toBe(ro.clientId);
    expect((await (await env.api(`/openid4/vp/v1_0/authorizations/${json.authorizationId}/status`)).json()).status).toBe('pending');

    const response = await encryptResponse(ro.jwt, { vp_token: { pid: [await makeSdJwt()] }, state: claims.state });
    const post = await fetch(claims.response_uri as string, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ response }) });
    expect(post.status).toBe(200);
    const { redirect_uri } = (await post.json()) as { redirect_uri: string };
    const code = new URL(redirect_uri).searchParams.get('response_code')!;
    expect(redirect_uri.startsWith('https://rp.example/callback?response_code=')).toBe(true);
    expect(Buffer.from(code, 'base64url').length).toBeGreaterThanOrEqual(16);

    const resolve = () => env.api('/openid4/vp/v1_0/response-code/resolve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ response_code: code }) });
    const first = await resolve();
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ authorization_id: json.authorizationId, status: 'authorized' });
    expect((await resolve()).status).toBe(404);

    const policy = (await (await env.api(`/openid4/vp/v1_0/authorizations/${json.authorizationId}/policy-response`)).json()) as { data: { policy: string }[] };
    expect(policy.data.map((r) => r.policy)).toEqual(expect.arrayContaining(['format', 'credentialQuery', 'proof']));
    const creds = (await (await env.api(`/openid4/vp/v1_0/authorizations/${json.authorizationId}/credentials`)).json()) as { credentials: { claims: Record<string, unknown> }[] };
    expect(creds.credentials[0]!.claims.given_name).toBe('Erika');
  });
});
