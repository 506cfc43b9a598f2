import { CompactEncrypt, SignJWT, decodeJwt, exportJWK, generateKeyPair, importJWK } from 'jose';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { createAuthorizer, memoryStore, passThroughValidator, passThroughVerifier, type Authorizer, type AuthorizerOptions, type InstanceOptions } from '@vp-authorizer/core';
import { serveFetch } from './serve-fetch.js';

export const API_KEY = 'test-api-key-main-0001';
export const OTHER_KEY = 'test-api-key-other-0001';

let devKey: Awaited<ReturnType<typeof generateDevSigningKey>> | undefined;
export async function devSigning() {
  devKey ??= await generateDevSigningKey();
  return devKey;
}

/** An authorizer behind a real HTTP server on 127.0.0.1, mounted under /authz. */
export async function startAuthorizer(overrides: Partial<AuthorizerOptions> & { instance?: Partial<InstanceOptions> } = {}) {
  const server = await serveFetch();
  const { signing } = await devSigning();
  const { instance, ...rest } = overrides;
  const authorizer: Authorizer = createAuthorizer({
    publicBaseUrl: `${server.origin}/authz`,
    basePath: '/authz',
    store: memoryStore({ sweepIntervalMs: 0, ...(overrides.clock ? { clock: overrides.clock } : {}) }),
    sweepIntervalMs: 0,
    instances: [
      { id: 'main', apiKeys: [API_KEY], signing, validator: passThroughValidator(), verifier: passThroughVerifier(), config: { openId4vp: { redirectUri: 'https://rp.example/callback', dcApi: { allowedOrigins: ['https://rp.example'] } } }, ...instance },
      { id: 'other', apiKeys: [OTHER_KEY], signing, validator: passThroughValidator(), verifier: passThroughVerifier() },
    ],
    ...rest,
  });
  server.attach((r) => authorizer.fetch(r));
  const base = `${server.origin}/authz`;
  const api = (path: string, init: RequestInit & { key?: string | null } = {}) => {
    const headers = new Headers(init.headers);
    if (init.key !== null) headers.set('authorization', `Bearer ${init.key ?? API_KEY}`);
    return fetch(`${base}${path}`, { ...init, headers });
  };
  return {
    authorizer,
    base,
    api,
    async close() {
      await authorizer.close();
      await server.close();
    },
  };
}

export const DCQL_SD_JWT = { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: [{ path: ['given_name'] }] }] };

/** A syntactically valid SD-JWT with no disclosures (the pass-through clients accept it). */
export async function makeSdJwt(): Promise<string> {
  const { privateKey } = await generateKeyPair('ES256');
  const jwt = await new SignJWT({ vct: 'urn:eudi:pid:1', iss: 'https://issuer.example', given_name: 'Erika', _sd_alg: 'sha-256' })
    .setProtectedHeader({ alg: 'ES256', typ: 'dc+sd-jwt' })
    .sign(privateKey);
  return `${jwt}~`;
}

/** Encrypt a response payload to the request object's encryption key, as a wallet would. */
export async function encryptResponse(requestObject: string, payload: Record<string, unknown>, enc: 'A128GCM' | 'A256GCM' = 'A256GCM'): Promise<string> {
  const claims = decodeJwt(requestObject) as { client_metadata: { jwks: { keys: (JsonWebKey & { kid: string })[] } } };
  const jwk = claims.client_metadata.jwks.keys[0]!;
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: 'ECDH-ES', enc, kid: jwk.kid })
    .encrypt(await importJWK(jwk, 'ECDH-ES'));
}

export async function createDcqlAuthorization(api: Awaited<ReturnType<typeof startAuthorizer>>['api'], body: Record<string, unknown> = {}) {
  const res = await api('/openid4/vp/v1_0/authorizations', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: DCQL_SD_JWT }, ...body }),
  });
  return { res, json: (await res.json()) as Record<string, string> };
}

export async function fetchRequestObject(authorizeUrl: string, walletNonce?: string) {
  const url = new URL(authorizeUrl.replace(/^[a-z0-9+.-]+:\/\//i, 'https://wallet.invalid/'));
  const requestUri = url.searchParams.get('request_uri')!;
  const res = await fetch(requestUri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(walletNonce ? { wallet_nonce: walletNonce } : {}) });
  return { res, jwt: await res.text(), clientId: url.searchParams.get('client_id')! };
}

export { exportJWK };
