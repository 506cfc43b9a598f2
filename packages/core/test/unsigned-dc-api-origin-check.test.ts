// Unsigned DC API requests carry no expected_origins to the wallet, so the verifier must check the
// origin the RP reports against something: the request's expectedOrigins or the instance's
// openId4vp.dcApi.allowedOrigins. With neither, the request is refused at creation.
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

  it('refuses to create an unsigned request when there is nothing to check the origin against', async () => {
    env = await startAuthorizer(instanceConfig({}));
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
