// vp_formats_supported must list exactly what the configured verifier accepts (conformance
// suite): a verifier that declares supportedAlgorithms is advertised as declared, per profile.
import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { passThroughVerifier, type SupportedAlgorithms, type VerifierClient } from '@vp-authorizer/core';
import { DCQL_SD_JWT, createDcqlAuthorization, fetchRequestObject, startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
afterEach(() => env?.close());

const MDOC_AND_SD_JWT = { credentials: [...DCQL_SD_JWT.credentials, { id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: 'org.iso.18013.5.1.mDL' } }] };

/** A verifier accepting ES256 + ES384 outside HAIP and ES256 under HAIP. */
function declaringVerifier(): VerifierClient {
  return {
    ...passThroughVerifier(),
    supportedAlgorithms: (profile): SupportedAlgorithms => (profile === 'haip' ? { jose: ['ES256'], cose: [-7, -9] } : { jose: ['ES256', 'ES384'], cose: [-7, -9, -35] }),
  };
}

async function requestObjectFormats(body: Record<string, unknown>, walletMetadata?: Record<string, unknown>) {
  const { res, json } = await createDcqlAuthorization(env.api, { query: { type: 'DCQL', dcql: MDOC_AND_SD_JWT }, ...body });
  expect(res.status).toBe(201);
  const url = new URL(json.authorizeUrl!.replace(/^[a-z0-9+.-]+:\/\//i, 'https://wallet.invalid/'));
  const form = new URLSearchParams(walletMetadata ? { wallet_metadata: JSON.stringify(walletMetadata) } : {});
  const fetched = await fetch(url.searchParams.get('request_uri')!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
  return { status: fetched.status, formats: fetched.ok ? (decodeJwt(await fetched.text()).client_metadata as { vp_formats_supported: unknown }).vp_formats_supported : undefined };
}

describe('vp_formats_supported follows the verifier', () => {
  it("advertises the verifier's declared algorithms outside HAIP", async () => {
    env = await startAuthorizer({ instance: { verifier: declaringVerifier() } });
    expect((await requestObjectFormats({})).formats).toEqual({
      'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256', 'ES384'], 'kb-jwt_alg_values': ['ES256', 'ES384'] },
      mso_mdoc: { issuerauth_alg_values: [-7, -9, -35], deviceauth_alg_values: [-7, -9, -35] },
    });
  });

  it('advertises what the verifier declares for HAIP under HAIP', async () => {
    env = await startAuthorizer({ instance: { verifier: declaringVerifier() } });
    expect((await requestObjectFormats({ profile: 'haip' })).formats).toEqual({
      'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] },
      mso_mdoc: { issuerauth_alg_values: [-7, -9], deviceauth_alg_values: [-7, -9] },
    });
  });

  it('keeps ES256 only for a verifier that does not declare', async () => {
    env = await startAuthorizer();
    expect((await requestObjectFormats({})).formats).toEqual({
      'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] },
      mso_mdoc: { issuerauth_alg_values: [-7, -9], deviceauth_alg_values: [-7, -9] },
    });
  });

  it('checks posted HAIP wallet metadata against the same set', async () => {
    const es384Wallet = { vp_formats_supported: { 'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES384'] }, mso_mdoc: { issuerauth_alg_values: [-35] } } };
    const es384Verifier: VerifierClient = { ...passThroughVerifier(), supportedAlgorithms: () => ({ jose: ['ES256', 'ES384'], cose: [-7, -35] }) };
    env = await startAuthorizer({ instance: { verifier: es384Verifier } });
    expect((await requestObjectFormats({ profile: 'haip' }, es384Wallet)).status).toBe(200);
    await env.close();
    env = await startAuthorizer();
    expect((await requestObjectFormats({ profile: 'haip' }, es384Wallet)).status).toBe(400);
  });
});
