import { compactVerify, generalVerify, importX509 } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { x509Hash } from '../crypto/x509-hash.js';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { buildAuthorization, type DcApiAuthorizationResponse, type DirectPostAuthorizationResponse } from './build-authorization.js';
import { parseCreateAuthorizationBody } from './create-authorization-body.js';
import { loadSigningMaterial, type SigningMaterial } from './signing-material.js';
import { b64urlJson, mdocDcql, sdJwtDcql, testConfig } from './__fixtures__/request-fixtures.js';

const BASE = 'https://verifier.example/authz';
const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
let signing: SigningMaterial;
let leafKey: CryptoKey;

beforeAll(async () => {
  signing = await loadSigningMaterial((await generateDevSigningKey()).signing);
  leafKey = await importX509(`-----BEGIN CERTIFICATE-----\n${signing.x5c[0]}\n-----END CERTIFICATE-----`, 'ES256');
});

const build = (body: unknown, config = testConfig(), id = 'auth-1') =>
  buildAuthorization({ id, instanceId: 'inst-1', body: parseCreateAuthorizationBody(body), config, signing, publicBaseUrl: BASE, now: NOW });

describe('buildAuthorization: direct_post modes', () => {
  it('builds the record and the 201 body for direct_post.jwt', async () => {
    const { record, response } = await build({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: sdJwtDcql } });
    const r = response as DirectPostAuthorizationResponse;

    expect(record).toMatchObject({ id: 'auth-1', instanceId: 'inst-1', version: 1, status: 'created', createdAt: NOW, updatedAt: NOW, expiresAt: NOW + 300_000, policyResults: [], credentials: [] });
    expect(record.request.clientId).toBe(`x509_hash:${x509Hash(signing.x5c[0]!)}`);
    expect(record.request.responseUri).toBe(`${BASE}/openid4/vp/v1_0/auth-1/direct_post.jwt`);
    expect(record.request.state).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits
    expect(record.request.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(record.request.responseType).toBe('vp_token');

    const key = record.encryptionKey!;
    expect(key.alg).toBe('ECDH-ES');
    expect(key.publicJwk).toEqual({ kty: 'EC', crv: 'P-256', x: expect.any(String), y: expect.any(String), kid: key.kid, alg: 'ECDH-ES', use: 'enc' });
    expect(key.privateJwk.d).toEqual(expect.any(String));

    expect(r).toEqual({
      authorizationId: 'auth-1',
      expiresAt: new Date(NOW + 300_000).toISOString(),
      nonce: record.request.nonce,
      authorizeUrl: expect.any(String),
      authorizationEndpoint: 'openid4vp:',
    });
    expect(r.authorizeUrl.startsWith('openid4vp://?')).toBe(true);
    const params = new URL(r.authorizeUrl).searchParams;
    expect(params.get('client_id')).toBe(record.request.clientId);
    expect(params.get('request_uri')).toBe(`${BASE}/openid4/vp/v1_0/authorizations/auth-1/jwt`);
    expect(params.get('request_uri_method')).toBe('post');
  });

  it('makes fresh nonces, states and keys for every authorization', async () => {
    const body = { responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: sdJwtDcql } };
    const [a, b] = await Promise.all([build(body), build(body)]);
    expect(a.record.request.nonce).not.toBe(b.record.request.nonce);
    expect(a.record.request.state).not.toBe(b.record.request.state);
    expect(a.record.encryptionKey!.publicJwk.x).not.toBe(b.record.encryptionKey!.publicJwk.x);
  });

  it('uses the given nonce, the body redirectUri over the config default, and no key for direct_post', async () => {
    const config = testConfig({ openId4vp: { redirectUri: 'https://rp.example/default', authorizationEndpoint: 'haip-vp://', expiresAfter: 60_000 } });
    const { record, response } = await build(
      { responseMode: 'direct_post', nonce: 'given-nonce-0123456789', redirectUri: 'https://rp.example/here', query: { type: 'DCQL', dcql: sdJwtDcql } },
      config,
    );
    expect(record.request.nonce).toBe('given-nonce-0123456789');
    expect(response.nonce).toBe('given-nonce-0123456789');
    expect(record.request.redirectUri).toBe('https://rp.example/here');
    expect(record.encryptionKey).toBeUndefined();
    expect(record.expiresAt).toBe(NOW + 60_000);
    expect((response as DirectPostAuthorizationResponse).authorizeUrl.startsWith('haip-vp://?client_id=')).toBe(true);
    const fallback = await build({ responseMode: 'direct_post', query: { type: 'DCQL', dcql: sdJwtDcql } }, config);
    expect(fallback.record.request.redirectUri).toBe('https://rp.example/default');
  });

  it('uses x509_san_dns when configured and keeps transaction data, verifier info and profile', async () => {
    const td = b64urlJson({ type: 'payment', credential_ids: ['pid'] });
    const { record } = await build(
      {
        profile: 'haip',
        responseMode: 'direct_post.jwt',
        query: { type: 'DCQL', dcql: sdJwtDcql },
        transaction_data: [td],
        responseTypeParameters: { verifier_info: [{ format: 'registrar_dataset', data: 'x' }] },
      },
      testConfig({ openId4vp: { clientIdPrefix: 'x509_san_dns' } }),
    );
    expect(record.request.clientId).toBe('x509_san_dns:localhost');
    expect(record.request.transactionData).toEqual([td]);
    expect(record.request.verifierInfo).toEqual([{ format: 'registrar_dataset', data: 'x' }]);
    expect(record.request.profile).toBe('haip');
  });
});

describe('buildAuthorization: DC API', () => {
  const dc = (protocol: string, extra: Record<string, unknown> = {}) => ({
    responseMode: 'dc_api.jwt',
    protocol,
    query: { type: 'DCQL', dcql: mdocDcql },
    ...(protocol === 'openid4vp-v1-unsigned' ? {} : { expectedOrigins: ['https://rp.example'] }),
    ...extra,
  });

  const withAllowedOrigins = testConfig({ openId4vp: { dcApi: { allowedOrigins: ['https://rp.example'] } } });

  it('unsigned: pending record, no client_id, no state, request data in the 201', async () => {
    const { record, response } = await build(dc('openid4vp-v1-unsigned', { responseMode: 'dc_api' }), withAllowedOrigins);
    const r = response as DcApiAuthorizationResponse;
    expect(record.status).toBe('pending');
    expect(record.request.clientId).toBeUndefined();
    expect(record.request.state).toBeUndefined();
    expect(record.request.responseUri).toBeUndefined();
    expect(record.encryptionKey).toBeUndefined();
    expect(r.responseUrl).toBe(`${BASE}/openid4/vp/v1_0/auth-1/dc_api`);
    expect(r.digitalCredentialGetRequest).toEqual({
      protocol: 'openid4vp-v1-unsigned',
      data: {
        response_type: 'vp_token',
        response_mode: 'dc_api',
        nonce: record.request.nonce,
        client_metadata: { vp_formats_supported: { mso_mdoc: { issuerauth_alg_values: [-7, -9], deviceauth_alg_values: [-7, -9] } } },
        dcql_query: mdocDcql,
      },
    });
    expect(JSON.stringify(r)).not.toContain('client_id');
  });

  it('unsigned dc_api.jwt carries the public encryption key only', async () => {
    const { record, response } = await build(dc('openid4vp-v1-unsigned'), withAllowedOrigins);
    const data = (response as DcApiAuthorizationResponse).digitalCredentialGetRequest.data as unknown as { client_metadata: { jwks: { keys: { kid: string }[] } } };
    expect(data.client_metadata.jwks.keys[0]!.kid).toBe(record.encryptionKey!.kid);
    expect(JSON.stringify(response)).not.toMatch(/"d":/);
  });

  it('unsigned with nothing to check the response origin against is refused at creation', async () => {
    await expect(build(dc('openid4vp-v1-unsigned'))).rejects.toMatchObject({ code: 'request.expected_origins_required', errors: [{ pointer: '/expectedOrigins' }] });
  });

  it('unsigned with expectedOrigins needs no instance setting, and does not send them to the wallet', async () => {
    const { record, response } = await build(dc('openid4vp-v1-unsigned', { expectedOrigins: ['https://shop.example'] }));
    expect(record.request.expectedOrigins).toEqual(['https://shop.example']);
    expect(JSON.stringify(response)).not.toContain('shop.example');
  });

  it('advertises the algorithms it is given in the signed DC API request object, ES256 by default', async () => {
    const formatsOf = async (algorithms?: { jose: string[]; cose: number[] }) => {
      const { response } = await buildAuthorization({
        id: 'auth-2',
        instanceId: 'inst-1',
        body: parseCreateAuthorizationBody(dc('openid4vp-v1-signed')),
        config: testConfig(),
        signing,
        publicBaseUrl: BASE,
        now: NOW,
        ...(algorithms ? { algorithms } : {}),
      });
      const { payload } = await compactVerify(((response as DcApiAuthorizationResponse).digitalCredentialGetRequest.data as { request: string }).request, leafKey);
      return (JSON.parse(new TextDecoder().decode(payload)) as { client_metadata: { vp_formats_supported: unknown } }).client_metadata.vp_formats_supported;
    };
    expect(await formatsOf({ jose: ['ES256', 'ES384'], cose: [-7, -35] })).toEqual({ mso_mdoc: { issuerauth_alg_values: [-7, -35], deviceauth_alg_values: [-7, -35] } });
    expect(await formatsOf()).toEqual({ mso_mdoc: { issuerauth_alg_values: [-7, -9], deviceauth_alg_values: [-7, -9] } });
  });

  it('signed: a JWS verifiable with the leaf key, with client_id and expected_origins and no response_uri', async () => {
    const { record, response } = await build(dc('openid4vp-v1-signed'));
    const req = (response as DcApiAuthorizationResponse).digitalCredentialGetRequest;
    expect(req.protocol).toBe('openid4vp-v1-signed');
    const jws = (req.data as { request: string }).request;
    const { payload, protectedHeader } = await compactVerify(jws, leafKey);
    const claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
    expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'oauth-authz-req+jwt', x5c: signing.x5c });
    expect(claims).toMatchObject({
      client_id: record.request.clientId,
      expected_origins: ['https://rp.example'],
      response_type: 'vp_token',
      response_mode: 'dc_api.jwt',
      nonce: record.request.nonce,
      dcql_query: mdocDcql,
      iat: NOW / 1000,
      exp: record.expiresAt / 1000,
    });
    expect(claims).not.toHaveProperty('response_uri');
    expect(claims).not.toHaveProperty('state');
    expect((claims.client_metadata as { encrypted_response_enc_values_supported: string[] }).encrypted_response_enc_values_supported).toEqual(['A128GCM', 'A256GCM']);
  });

  it('multisigned: JWS JSON serialization with client_id only in the protected header', async () => {
    const { record, response } = await build(dc('openid4vp-v1-multisigned', { responseTypeParameters: { verifier_info: [{ format: 'registrar_dataset', data: 'x' }] } }));
    const req = (response as DcApiAuthorizationResponse).digitalCredentialGetRequest;
    expect(req.protocol).toBe('openid4vp-v1-multisigned');
    const data = req.data as { payload: string; signatures: { protected: string; signature: string }[] };
    expect(data.signatures).toHaveLength(1);
    const verified = await generalVerify(data, leafKey);
    const claims = JSON.parse(new TextDecoder().decode(verified.payload)) as Record<string, unknown>;
    expect(claims).not.toHaveProperty('client_id');
    expect(claims).not.toHaveProperty('verifier_info');
    expect(claims.expected_origins).toEqual(['https://rp.example']);
    const header = verified.protectedHeader as Record<string, unknown>;
    expect(JSON.parse(Buffer.from(data.signatures[0]!.protected, 'base64url').toString())).toEqual(header);
    expect(header).toMatchObject({ alg: 'ES256', typ: 'oauth-authz-req+jwt', client_id: record.request.clientId, x5c: signing.x5c, verifier_info: [{ format: 'registrar_dataset', data: 'x' }] });
  });
});
