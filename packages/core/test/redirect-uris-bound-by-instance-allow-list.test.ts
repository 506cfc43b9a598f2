// The redirect URI is where the wallet sends the user's browser after a same-device flow, with a
// response code. Whoever holds an API key chooses it per request; without a bound the authorizer
// is an open redirect for them. An instance may list the URIs (or origins) it redirects to, which
// then binds its own default and every request; credentials in a redirect URI are always refused.
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, createAuthorizer, passThroughVerifier, type InstanceConfigInput } from '@vp-authorizer/core';
import { createDcqlAuthorization, devSigning, startAuthorizer } from './__fixtures__/test-authorizer.js';
import { finishWithResponseCode } from './__fixtures__/finish-with-response-code.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
afterEach(() => env?.close());

const withOpenId4vp = (openId4vp: Record<string, unknown>) => ({ instance: { config: { openId4vp } } });

async function build(openId4vp: NonNullable<InstanceConfigInput>['openId4vp']) {
  const { signing } = await devSigning();
  return () =>
    createAuthorizer({
      publicBaseUrl: 'https://verifier.example',
      instances: [{ id: 'a', apiKeys: ['k-123456789'], signing, verifier: passThroughVerifier(), config: { policies: { validate: { skip: true } }, openId4vp } }],
    });
}

describe('redirect URIs', () => {
  it('a create body whose redirectUri carries credentials is refused with a pointer, allow-list or not, without echoing them', async () => {
    env = await startAuthorizer(withOpenId4vp({}));
    for (const redirectUri of ['https://user:secret-pw@rp.example/callback', 'https://user@rp.example/callback', 'https://:secret-pw@rp.example/']) {
      const { res, json } = await createDcqlAuthorization(env.api, { redirectUri });
      expect(res.status, redirectUri).toBe(400);
      expect(json).toMatchObject({ type: 'request.invalid_body', errors: [{ pointer: '/redirectUri', detail: expect.stringContaining('credentials') }] });
      expect(JSON.stringify(json)).not.toContain('secret-pw');
    }
  });

  it('an instance redirectUri with credentials is refused at construction', async () => {
    expect(await build({ redirectUri: 'https://user:pw@rp.example/callback' })).toThrow(ConfigError);
    expect(await build({ redirectUri: 'https://user:pw@rp.example/callback' })).toThrow(/redirectUri/);
  });

  it('with allowedRedirectUris, a request may name only a listed URI (exact) or a URI on a listed origin', async () => {
    env = await startAuthorizer(withOpenId4vp({ redirectUri: 'https://rp.example/callback', allowedRedirectUris: ['https://rp.example/callback', 'https://app.example'] }));
    for (const allowed of ['https://rp.example/callback', 'https://app.example/', 'https://app.example/login/done?lang=fr']) {
      expect((await createDcqlAuthorization(env.api, { redirectUri: allowed })).res.status, allowed).toBe(201);
    }
    for (const refused of ['https://evil.example/', 'http://127.0.0.1:1/', 'https://rp.example/callback?next=https://evil.example', 'https://rp.example/callback/', 'http://app.example/', 'https://app.example:8443/']) {
      const { res, json } = await createDcqlAuthorization(env.api, { redirectUri: refused });
      expect(res.status, refused).toBe(400);
      expect(json, refused).toMatchObject({ type: 'request.redirect_uri_not_allowed', errors: [{ pointer: '/redirectUri', code: 'request.redirect_uri_not_allowed' }] });
    }
  });

  // The URL parser reads `\\` as `/` and drops tabs and newlines: each of these is one URI as a
  // string and another as followed (several reach evil.example), so none is accepted, list or not.
  const disguised = [
    'https://rp.example\\@evil.example/',
    'https://rp.example\\\\evil.example/x',
    'https://rp.example\t/@evil.example',
    'https://rp.example\n@evil.example/',
    'https://rp.example/call back',
    'https://rp.example/\u0000x',
    'https://rp.example/\u007fx',
    'https://rp.example/\u00a0x',
  ];

  it.each([
    ['with an allow-list', { allowedRedirectUris: ['https://rp.example'] }],
    ['without an allow-list', {}],
  ])('a create body whose redirectUri holds a backslash, whitespace or a control character is refused with a pointer (%s)', async (_, openId4vp) => {
    env = await startAuthorizer(withOpenId4vp(openId4vp));
    for (const redirectUri of disguised) {
      const { res, json } = await createDcqlAuthorization(env.api, { redirectUri });
      expect(res.status, JSON.stringify(redirectUri)).toBe(400);
      expect(json, JSON.stringify(redirectUri)).toMatchObject({ type: 'request.invalid_body', errors: expect.arrayContaining([{ pointer: '/redirectUri', detail: expect.stringContaining('backslash') }]) });
    }
    expect((await createDcqlAuthorization(env.api, { redirectUri: 'https://rp.example/callback' })).res.status).toBe(201);
  });

  it('an instance redirectUri or allow-list entry with a backslash, whitespace or a control character is refused at construction', async () => {
    for (const uri of disguised) {
      expect(await build({ redirectUri: uri }), JSON.stringify(uri)).toThrow(ConfigError);
      expect(await build({ redirectUri: uri }), JSON.stringify(uri)).toThrow(/redirectUri/);
      expect(await build({ redirectUri: uri, allowedRedirectUris: ['https://rp.example'] }), JSON.stringify(uri)).toThrow(ConfigError);
      expect(await build({ allowedRedirectUris: [uri] }), JSON.stringify(uri)).toThrow(/backslash/);
    }
  });

  it('the wallet is sent to the allowed URI the request named', async () => {
    env = await startAuthorizer(withOpenId4vp({ allowedRedirectUris: ['https://app.example'] }));
    const { redirectUri } = await finishWithResponseCode(env.api, { redirectUri: 'https://app.example/done' });
    expect(redirectUri).toMatch(/^https:\/\/app\.example\/done\?response_code=/);
  });

  it("binds the instance's own redirectUri: one outside the list, or a malformed entry, is refused at construction", async () => {
    const outside = await build({ redirectUri: 'https://rp.example/callback', allowedRedirectUris: ['https://other.example'] });
    expect(outside).toThrow(ConfigError);
    expect(outside).toThrow(/redirectUri.*allowedRedirectUris|allowedRedirectUris.*redirectUri/s);
    expect(await build({ allowedRedirectUris: ['https://user:pw@rp.example/callback'] })).toThrow(/credentials/);
    // An origin is written as browsers write it: lower case, no default port, no trailing slash.
    expect(await build({ allowedRedirectUris: ['https://RP.example'] })).toThrow(ConfigError);
    expect(await build({ allowedRedirectUris: ['https://rp.example:443'] })).toThrow(ConfigError);
    expect(await build({ allowedRedirectUris: ['not a url'] })).toThrow(ConfigError);
    const fine = (await build({ redirectUri: 'https://rp.example/callback', allowedRedirectUris: ['https://rp.example'] }))();
    await fine.close();
  });
});
