// Unsigned DC API requests carry no expected_origins to the wallet, so the verifier must check the
// origin the RP reports against something: the request's expectedOrigins or the instance's
// openId4vp.dcApi.allowedOrigins. Without that setting, the instance allows the origin of its
// publicBaseUrl and its explicit CORS origins (never "*"): a client written for the hosted API,
// whose unsigned create carries no origins, works on a default instance. An explicit empty list
// turns that off, and an unsigned request without expectedOrigins is then refused at creation.
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, createAuthorizer, passThroughVerifier } from '@vp-authorizer/core';
import { devSigning, makeSdJwt, startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
afterEach(() => env?.close());

const dcql = { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] } }] };
const create = (body: Record<string, unknown> = {}) =>
  env.api('/openid4/vp/v1_0/authorizations', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ responseMode: 'dc_api', protocol: 'openid4vp-v1-unsigned', query: { type: 'DCQL', dcql }, ...body }),
  });
const respond = async (id: string, origin: string) =>
  env.api(`/openid4/vp/v1_0/${id}/dc_api`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ origin, digitalCredentialGetResponse: { vp_token: { pid: [await makeSdJwt()] } } }) });
const statusOf = async (id: string) => ((await (await env.api(`/openid4/vp/v1_0/authorizations/${id}/status`)).json()) as { status: string }).status;
const instanceConfig = (openId4vp: Record<string, unknown>) => ({ instance: { config: { openId4vp } } });

describe('unsigned DC API responses are checked against the allowed origins', () => {
  it('refuses a response from an origin the instance does not allow, and leaves the authorization pending', async () => {
    env = await startAuthorizer(instanceConfig({ dcApi: { allowedOrigins: ['https://rp.example'] } }));
    const { authorizationId } = (await (await create()).json()) as { authorizationId: string };
    const refused = await respond(authorizationId, 'https://evil.example');
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { type: string }).type).toBe('authorization.origin_mismatch');
    expect(await statusOf(authorizationId)).toBe('pending');
    // Compared exactly: a trailing slash is another origin.
    expect((await respond(authorizationId, 'https://rp.example/')).status).toBe(400);
    const accepted = await respond(authorizationId, 'https://rp.example');
    expect(await accepted.json()).toEqual({ status: 'authorized' });
  });

  it("uses the request's expectedOrigins instead of the instance's when the RP gave them", async () => {
    env = await startAuthorizer(instanceConfig({ dcApi: { allowedOrigins: ['https://rp.example'] } }));
    const { authorizationId } = (await (await create({ expectedOrigins: ['https://shop.example'] })).json()) as { authorizationId: string };
    expect((await respond(authorizationId, 'https://rp.example')).status).toBe(400);
    expect(await (await respond(authorizationId, 'https://shop.example')).json()).toEqual({ status: 'authorized' });
  });

  it("on a default instance, accepts an unsigned create without origins and checks the response against its publicBaseUrl's origin", async () => {
    env = await startAuthorizer(instanceConfig({}));
    const res = await create();
    expect(res.status).toBe(201);
    const { authorizationId } = (await res.json()) as { authorizationId: string };
    expect((await respond(authorizationId, 'https://evil.example')).status).toBe(400);
    expect(await statusOf(authorizationId)).toBe('pending');
    expect(await (await respond(authorizationId, new URL(env.base).origin)).json()).toEqual({ status: 'authorized' });
  });

  it('adds the instance\'s explicit CORS origins to that default, never "*"', async () => {
    env = await startAuthorizer({ instance: { config: { cors: { enabled: true, origin: ['https://shop.example', '*'] } } } });
    const first = ((await (await create()).json()) as { authorizationId: string }).authorizationId;
    expect((await respond(first, 'https://anything.example')).status).toBe(400);
    expect(await (await respond(first, 'https://shop.example')).json()).toEqual({ status: 'authorized' });
  });

  it('a CORS configuration that is not enabled adds nothing', async () => {
    env = await startAuthorizer({ instance: { config: { cors: { enabled: false, origin: ['https://shop.example'] } } } });
    const id = ((await (await create()).json()) as { authorizationId: string }).authorizationId;
    expect((await respond(id, 'https://shop.example')).status).toBe(400);
  });

  it('with allowedOrigins: [] there is no default: an unsigned request without expectedOrigins is refused at creation', async () => {
    env = await startAuthorizer(instanceConfig({ dcApi: { allowedOrigins: [] } }));
    const res = await create();
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ type: 'request.expected_origins_required', errors: [{ pointer: '/expectedOrigins' }] });
    expect((await create({ expectedOrigins: ['https://rp.example'] })).status).toBe(201);
  });

  it('rejects a malformed allowed origin at construction', async () => {
    const { signing } = await devSigning();
    const build = (allowedOrigins: string[]) => () =>
      createAuthorizer({
        publicBaseUrl: 'https://verifier.example',
        instances: [{ id: 'a', apiKeys: ['k-123456789'], signing, verifier: passThroughVerifier(), config: { policies: { validate: { skip: true } }, openId4vp: { dcApi: { allowedOrigins } } } }],
      });
    expect(build(['https://rp.example/'])).toThrow(ConfigError);
    expect(build(['javascript:alert(1)'])).toThrow(ConfigError);
    const ok = build(['https://rp.example', 'android:apk-key-hash:abc_-123'])();
    await ok.close();
  });
});
