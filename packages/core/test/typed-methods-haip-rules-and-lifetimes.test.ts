// Typed methods, every HAIP rule over HTTP, wallet metadata refusal, multisigned DC API creation,
// rejected/error events, TTL boundaries, refetch.
import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthorizerEvent } from '@vp-authorizer/core';
import { selfSignedSigningInput } from '../src/request/__fixtures__/request-fixtures.js';
import { DCQL_SD_JWT, createDcqlAuthorization, encryptResponse, fetchRequestObject, makeSdJwt, startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
afterEach(() => env?.close());

const create = (body: Record<string, unknown>) =>
  env.api('/openid4/vp/v1_0/authorizations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const typeOf = async (res: Response) => ((await res.json()) as { type: string }).type;

describe('the typed methods', () => {
  it('run a whole flow without HTTP, with the same results', async () => {
    env = await startAuthorizer();
    const a = env.authorizer;
    const created = (await a.createAuthorization('main', { responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: DCQL_SD_JWT } })) as { authorizationId: string };
    expect(await a.getStatus('main', created.authorizationId)).toEqual({ status: 'created' });
    const jwt = await a.getRequestObject(created.authorizationId, { walletNonce: 'n-1' });
    expect(decodeJwt(jwt).wallet_nonce).toBe('n-1');
    const response = await encryptResponse(jwt, { vp_token: { pid: [await makeSdJwt()] }, state: decodeJwt(jwt).state });
    const { redirect_uri } = await a.submitWalletResponse(created.authorizationId, 'direct_post.jwt', { response });
    const code = new URL(redirect_uri!).searchParams.get('response_code')!;
    await expect(a.resolveResponseCode('other', code)).rejects.toMatchObject({ code: 'response_code.not_found' });
    expect(await a.resolveResponseCode('main', code)).toEqual({ authorization_id: created.authorizationId, status: 'authorized' });
    await expect(a.resolveResponseCode('main', code)).rejects.toMatchObject({ code: 'response_code.not_found' });
    expect((await a.getPolicyResponse('main', created.authorizationId)).data.length).toBeGreaterThan(0);
    expect((await a.getCredentials('main', created.authorizationId)).credentials[0]!.claims.given_name).toBe('Erika');
    // The memory store shares frozen records with readers; what a caller gets is its own to change.
    const mine = await a.getCredentials('main', created.authorizationId);
    mine.credentials[0]!.claims.given_name = 'changed by the caller';
    (await a.getPolicyResponse('main', created.authorizationId)).data.length = 0;
    expect((await a.getCredentials('main', created.authorizationId)).credentials[0]!.claims.given_name).toBe('Erika');
    expect((await a.getPolicyResponse('main', created.authorizationId)).data.length).toBeGreaterThan(0);
    await expect(a.getStatus('other', created.authorizationId)).rejects.toMatchObject({ code: 'authorization.not_found' });

    const dc = (await a.createAuthorization('main', { responseMode: 'dc_api', protocol: 'openid4vp-v1-unsigned', query: { type: 'DCQL', dcql: DCQL_SD_JWT } })) as { authorizationId: string };
    expect(await a.submitDcApiResponse('main', dc.authorizationId, 'dc_api', { origin: 'https://rp.example', digitalCredentialGetResponse: { vp_token: { pid: [await makeSdJwt()] } } })).toEqual({ status: 'authorized' });
  });
});

describe('HAIP rules over HTTP (one case per rule)', () => {
  const haip = (extra: Record<string, unknown> = {}) => ({ profile: 'haip', responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: DCQL_SD_JWT }, ...extra });

  it('haip.credential_format and haip.holder_binding', async () => {
    env = await startAuthorizer();
    const jwtVc = { credentials: [{ id: 'vc', format: 'jwt_vc_json', meta: { type_values: [['https://www.w3.org/2018/credentials#VerifiableCredential']] } }] };
    expect(await typeOf(await create(haip({ query: { type: 'DCQL', dcql: jwtVc } })))).toBe('haip.credential_format');
    const unbound = { credentials: [{ ...DCQL_SD_JWT.credentials[0], require_cryptographic_holder_binding: false }] };
    expect(await typeOf(await create(haip({ query: { type: 'DCQL', dcql: unbound } })))).toBe('haip.holder_binding');
  });

  it('haip.client_id_prefix: an instance on x509_san_dns cannot create HAIP requests', async () => {
    env = await startAuthorizer({ instance: { config: { openId4vp: { clientIdPrefix: 'x509_san_dns' } } } });
    expect(await typeOf(await create(haip()))).toBe('haip.client_id_prefix');
    expect((await create({ ...haip(), profile: undefined })).status).toBe(201);
  });

  it('haip.certificate_chain: a self-signed signing certificate is refused under HAIP only', async () => {
    env = await startAuthorizer({ instance: { signing: await selfSignedSigningInput() } });
    expect(await typeOf(await create(haip()))).toBe('haip.certificate_chain');
    expect((await create({ ...haip(), profile: undefined })).status).toBe(201);
  });

  it('haip.wallet_metadata: a wallet posting non-HAIP metadata gets 400 and the request stays unanswered', async () => {
    env = await startAuthorizer();
    const { json } = await createDcqlAuthorization(env.api, { profile: 'haip' });
    const requestUri = new URL(json.authorizeUrl!.replace('openid4vp://', 'https://w.invalid/')).searchParams.get('request_uri')!;
    const walletMetadata = JSON.stringify({ vp_formats_supported: { 'dc+sd-jwt': { 'sd-jwt_alg_values': ['EdDSA'] } }, request_object_signing_alg_values_supported: ['EdDSA'], client_id_prefixes_supported: ['x509_hash'] });
    const res = await fetch(requestUri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ wallet_metadata: walletMetadata }) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request' });
    expect(await (await env.api(`/openid4/vp/v1_0/authorizations/${json.authorizationId}/status`)).json()).toEqual({ status: 'created' });
  });
});

describe('creation variants', () => {
  it('DC API multisigned: JWS JSON serialization with client_id only in the protected header', async () => {
    env = await startAuthorizer();
    const res = await create({ responseMode: 'dc_api.jwt', protocol: 'openid4vp-v1-multisigned', expectedOrigins: ['https://rp.example'], query: { type: 'DCQL', dcql: DCQL_SD_JWT } });
    expect(res.status).toBe(201);
    const { digitalCredentialGetRequest: req } = (await res.json()) as { digitalCredentialGetRequest: { protocol: string; data: { payload: string; signatures: { protected: string; signature: string }[] } } };
    expect(req.protocol).toBe('openid4vp-v1-multisigned');
    expect(req.data.signatures).toHaveLength(1);
    const header = JSON.parse(Buffer.from(req.data.signatures[0]!.protected, 'base64url').toString());
    const payload = JSON.parse(Buffer.from(req.data.payload, 'base64url').toString());
    expect(header.client_id).toMatch(/^x509_hash:/);
    expect(payload.client_id).toBeUndefined();
    expect(payload.expected_origins).toEqual(['https://rp.example']);
  });

  it('the request object can be fetched again: same nonce, state and encryption key, fresh wallet_nonce', async () => {
    env = await startAuthorizer();
    const { json } = await createDcqlAuthorization(env.api);
    const first = decodeJwt((await fetchRequestObject(json.authorizeUrl!, 'one')).jwt) as Record<string, any>;
    const second = decodeJwt((await fetchRequestObject(json.authorizeUrl!, 'two')).jwt) as Record<string, any>;
    for (const claim of ['nonce', 'state', 'client_id', 'response_uri']) expect(second[claim]).toBe(first[claim]);
    expect(second.client_metadata.jwks).toEqual(first.client_metadata.jwks);
    expect([first.wallet_nonce, second.wallet_nonce]).toEqual(['one', 'two']);
  });
});

describe('events and lifetimes', () => {
  it('emits rejected and error events', async () => {
    const events: AuthorizerEvent[] = [];
    env = await startAuthorizer({ onEvent: (e) => void events.push(e), instance: { verifier: { verify: async () => Promise.reject(new Error('down')), verifyIdToken: async () => [] } } });
    for (const payload of [{ error: 'access_denied' }, { vp_token: { pid: [await makeSdJwt()] } }]) {
      const { json } = await createDcqlAuthorization(env.api);
      const ro = await fetchRequestObject(json.authorizeUrl!);
      const response = await encryptResponse(ro.jwt, { ...payload, state: decodeJwt(ro.jwt).state });
      await fetch(decodeJwt(ro.jwt).response_uri as string, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ response }) });
    }
    expect(events.map((e) => e.type).filter((t) => t === 'authorization.rejected' || t === 'authorization.error')).toEqual(['authorization.rejected', 'authorization.error']);
  });

  it('a response code still resolves just before its 5-minute TTL and not after', async () => {
    let now = Date.now();
    env = await startAuthorizer({ clock: { now: () => now } });
    const codes: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { json } = await createDcqlAuthorization(env.api);
      const ro = await fetchRequestObject(json.authorizeUrl!);
      const response = await encryptResponse(ro.jwt, { vp_token: { pid: [await makeSdJwt()] }, state: decodeJwt(ro.jwt).state });
      const post = await fetch(decodeJwt(ro.jwt).response_uri as string, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ response }) });
      codes.push(new URL(((await post.json()) as { redirect_uri: string }).redirect_uri).searchParams.get('response_code')!);
    }
    const resolve = (code: string) => env.api('/openid4/vp/v1_0/response-code/resolve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ response_code: code }) });
    now += 5 * 60_000 - 1;
    expect((await resolve(codes[0]!)).status).toBe(200);
    now += 2;
    expect((await resolve(codes[1]!)).status).toBe(404);
  });
});
