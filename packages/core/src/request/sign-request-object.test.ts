import { X509Certificate } from 'node:crypto';
import { compactVerify, decodeProtectedHeader, importX509 } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { x509Hash } from '../crypto/x509-hash.js';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { buildAuthorization, type DirectPostAuthorizationResponse } from './build-authorization.js';
import { parseCreateAuthorizationBody } from './create-authorization-body.js';
import { signRequestObject } from './sign-request-object.js';
import { loadSigningMaterial, type SigningMaterial } from './signing-material.js';
import { b64urlJson, mdocDcql, sdJwtDcql, testConfig } from './__fixtures__/request-fixtures.js';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const BASE = 'https://verifier.example';
let signing: SigningMaterial;

beforeAll(async () => {
  signing = await loadSigningMaterial((await generateDevSigningKey()).signing);
});

async function create(body: unknown, config = testConfig({ openId4vp: { clientMetadata: { clientName: 'Demo RP', clientUri: 'https://rp.example', logoUri: 'https://rp.example/logo.png' } } })) {
  const built = await buildAuthorization({ id: 'a1', instanceId: 'i1', body: parseCreateAuthorizationBody(body), config, signing, publicBaseUrl: BASE, now: NOW });
  return { ...built, config };
}

/** Verify with the key of the leaf certificate taken from the JWS's own x5c header, as a wallet does. */
async function verifyWithX5c(jws: string) {
  const header = decodeProtectedHeader(jws);
  const leafPem = new X509Certificate(Buffer.from(header.x5c![0]!, 'base64')).toString();
  const { payload, protectedHeader } = await compactVerify(jws, await importX509(leafPem, 'ES256'));
  return { header: protectedHeader, claims: JSON.parse(new TextDecoder().decode(payload)) as Record<string, any> };
}

describe('signRequestObject', () => {
  it('signs a HAIP direct_post.jwt request object a wallet can verify', async () => {
    const { record, response, config } = await create({ profile: 'haip', responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: sdJwtDcql } });
    const jws = await signRequestObject({ record, signing, config, now: NOW + 1_000 });
    const { header, claims } = await verifyWithX5c(jws);

    expect(header).toEqual({ alg: 'ES256', typ: 'oauth-authz-req+jwt', x5c: signing.x5c });
    const urlClientId = new URL((response as DirectPostAuthorizationResponse).authorizeUrl).searchParams.get('client_id');
    expect(claims.client_id).toBe(urlClientId);
    expect(claims.client_id).toBe(`x509_hash:${x509Hash(header.x5c![0]!)}`);
    expect(claims).toMatchObject({
      response_type: 'vp_token',
      response_mode: 'direct_post.jwt',
      response_uri: `${BASE}/openid4/vp/v1_0/a1/direct_post.jwt`,
      nonce: record.request.nonce,
      state: record.request.state,
      dcql_query: sdJwtDcql,
      aud: 'https://self-issued.me/v2',
      iat: (NOW + 1_000) / 1000,
    });
    expect(claims).not.toHaveProperty('redirect_uri');
    expect(claims).not.toHaveProperty('presentation_definition');
    expect(claims).not.toHaveProperty('wallet_nonce');
    expect(claims).not.toHaveProperty('scope');

    const meta = claims.client_metadata;
    expect(meta.jwks.keys).toEqual([{ kty: 'EC', crv: 'P-256', x: expect.any(String), y: expect.any(String), kid: record.encryptionKey!.kid, alg: 'ECDH-ES', use: 'enc' }]);
    expect(meta.encrypted_response_enc_values_supported).toEqual(['A128GCM', 'A256GCM']);
    expect(meta.vp_formats_supported).toEqual({ 'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] } });
    expect(meta).toMatchObject({ client_name: 'Demo RP', client_uri: 'https://rp.example', logo_uri: 'https://rp.example/logo.png' });

    // No private key material anywhere in the token.
    const decodedAll = JSON.stringify(claims) + JSON.stringify(header);
    expect(decodedAll).not.toMatch(/"d":/);
    expect(decodedAll).not.toContain(record.encryptionKey!.privateJwk.d!);
  });

  it('caps exp at five minutes but never past the authorization expiry', async () => {
    const long = await create({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: sdJwtDcql } }, testConfig({ openId4vp: { expiresAfter: 3_600_000 } }));
    const a = await verifyWithX5c(await signRequestObject({ record: long.record, signing, config: long.config, now: NOW }));
    expect(a.claims.exp - a.claims.iat).toBe(300);
    const short = await create({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: sdJwtDcql } }, testConfig({ openId4vp: { expiresAfter: 60_000 } }));
    const b = await verifyWithX5c(await signRequestObject({ record: short.record, signing, config: short.config, now: NOW + 10_000 }));
    expect(b.claims.exp).toBe((NOW + 60_000) / 1000);
  });

  it('copies wallet_nonce and uses the wallet issuer as aud', async () => {
    const { record, config } = await create({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: sdJwtDcql } });
    const { claims } = await verifyWithX5c(
      await signRequestObject({ record, signing, config, now: NOW, walletNonce: 'wn-123', walletMetadata: { issuer: 'https://wallet.example' } }),
    );
    expect(claims.wallet_nonce).toBe('wn-123');
    expect(claims.aud).toBe('https://wallet.example');
    const other = await verifyWithX5c(await signRequestObject({ record, signing, config, now: NOW, walletMetadata: { issuer: 42 } }));
    expect(other.claims.aud).toBe('https://self-issued.me/v2');
    // Metadata the RP supplied at creation is used when the wallet posts none.
    const pre = await create({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: sdJwtDcql }, walletMetadata: { issuer: 'https://known-wallet.example' } });
    const third = await verifyWithX5c(await signRequestObject({ record: pre.record, signing, config: pre.config, now: NOW }));
    expect(third.claims.aud).toBe('https://known-wallet.example');
  });

  it('direct_post: no jwks or enc values; vp_token id_token adds scope and id_token_type; transaction data copied', async () => {
    const td = b64urlJson({ type: 'payment', credential_ids: ['pid'] });
    const { record, config } = await create({
      responseMode: 'direct_post',
      responseType: 'vp_token id_token',
      query: { type: 'DCQL', dcql: { credentials: [...sdJwtDcql.credentials, ...mdocDcql.credentials] } },
      responseTypeParameters: { transaction_data: [td], verifier_info: [{ format: 'registrar_dataset', data: { a: 1 } }] },
    });
    const { claims } = await verifyWithX5c(await signRequestObject({ record, signing, config, now: NOW }));
    expect(claims.client_metadata).not.toHaveProperty('jwks');
    expect(claims.client_metadata).not.toHaveProperty('encrypted_response_enc_values_supported');
    expect(Object.keys(claims.client_metadata.vp_formats_supported).sort()).toEqual(['dc+sd-jwt', 'mso_mdoc']);
    expect(claims.scope).toBe('openid');
    expect(claims.id_token_type).toBe('subject_signed_id_token');
    expect(claims.transaction_data).toEqual([td]);
    expect(claims.verifier_info).toEqual([{ format: 'registrar_dataset', data: { a: 1 } }]);
  });

  it('Presentation Exchange: presentation_definition and legacy formats', async () => {
    const pd = { id: 'pd', input_descriptors: [{ id: 'a', format: { 'vc+sd-jwt': {} } }] };
    const { record, config } = await create({ responseMode: 'direct_post', query: { type: 'DIF.PresentationExchange', presentationDefinition: pd } });
    const { claims } = await verifyWithX5c(await signRequestObject({ record, signing, config, now: NOW }));
    expect(claims.presentation_definition).toEqual(pd);
    expect(claims).not.toHaveProperty('dcql_query');
    expect(Object.keys(claims.client_metadata.vp_formats_supported).sort()).toEqual(['jwt_vc_json', 'jwt_vp', 'jwt_vp_json', 'vc+sd-jwt']);
    expect(claims.client_metadata.vp_formats.jwt_vp_json).toEqual({ alg: ['ES256'] });
  });

  it('carries the chain of the material it signs with, also when the material\'s chain is replaced', async () => {
    const { record, config } = await create({ profile: 'haip', responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: sdJwtDcql } });
    const material = { ...signing };
    expect(decodeProtectedHeader(await signRequestObject({ record, signing: material, config, now: NOW })).x5c).toEqual(signing.x5c);
    material.x5c = [signing.x5c[0]!, signing.x5c[0]!];
    expect(decodeProtectedHeader(await signRequestObject({ record, signing: material, config, now: NOW })).x5c).toEqual([signing.x5c[0], signing.x5c[0]]);
  });

  it('is rejected by verification with another key', async () => {
    const { record, config } = await create({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: sdJwtDcql } });
    const jws = await signRequestObject({ record, signing, config, now: NOW });
    const other = await generateDevSigningKey();
    await expect(compactVerify(jws, await importX509(other.leafCertificatePem, 'ES256'))).rejects.toThrow();
  });
});
