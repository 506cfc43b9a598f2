// The dc_api body is the DigitalCredential a browser returned, forwarded by the relying party: any
// visitor of its site controls it. Its vp_token is checked in one pass that reports one problem,
// however many presentations it holds; an array of things that are no presentation is refused
// (it used to be read as an object of indexes and accepted).
import { afterEach, describe, expect, it } from 'vitest';
import { makeSdJwt, startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
afterEach(() => env?.close());

const dcql = { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] } }] };
const create = async () =>
  (
    (await (
      await env.api('/openid4/vp/v1_0/authorizations', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ responseMode: 'dc_api', protocol: 'openid4vp-v1-unsigned', query: { type: 'DCQL', dcql }, expectedOrigins: ['https://rp.example'] }),
      })
    ).json()) as { authorizationId: string }
  ).authorizationId;
const respond = (id: string, vpToken: unknown) =>
  env.api(`/openid4/vp/v1_0/${id}/dc_api`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ origin: 'https://rp.example', digitalCredentialGetResponse: { vp_token: vpToken } }),
  });
const statusOf = async (id: string) => ((await (await env.api(`/openid4/vp/v1_0/authorizations/${id}/status`)).json()) as { status: string }).status;

describe('dc_api bodies are checked in one pass', () => {
  it('refuses an array of 200,000 numbers with one problem, and the authorization stays pending', async () => {
    env = await startAuthorizer();
    const id = await create();
    const refused = await respond(id, { pid: Array.from({ length: 200_000 }, () => 1) });
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { type: string; errors?: unknown[] };
    expect(body.type).toBe('request.invalid_body');
    expect(body.errors!.length).toBeLessThanOrEqual(3);
    expect(await statusOf(id)).toBe('pending');
  });

  it('refuses 60,000 entries that are no presentations with one problem', async () => {
    env = await startAuthorizer();
    const id = await create();
    const refused = await respond(id, Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`q${i}`, 1])));
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { errors?: unknown[] }).errors!.length).toBeLessThanOrEqual(3);
  });

  it('refuses an empty array and accepts an array of presentations', async () => {
    env = await startAuthorizer();
    const id = await create();
    expect((await respond(id, { pid: [] })).status).toBe(400);
    const accepted = await respond(id, { pid: [await makeSdJwt()] });
    expect(await accepted.json()).toEqual({ status: 'authorized' });
  });
});
