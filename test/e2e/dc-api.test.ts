import { generateDevSigningKey } from '@vp-authorizer/keys';
import { type DcApiGetRequest, createTestWallet } from '@vp-authorizer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eEnvironment, MDL_DOCTYPE, MDL_ELEMENTS, MDL_NS, PID_CLAIMS, PID_VCT, failedCodes, mdlQuery, pidQuery, startE2eEnvironment } from './e2e-harness.js';

const ORIGIN = 'https://rp.example';
let env: E2eEnvironment;
beforeAll(async () => {
  env = await startE2eEnvironment();
});
afterAll(async () => env.close());

async function walletWithPidAndMdl() {
  const wallet = await createTestWallet();
  const pid = await wallet.addSdJwtVc(env.issuer, { vct: PID_VCT, claims: PID_CLAIMS });
  const mdl = await wallet.addMdoc(env.issuer, { docType: MDL_DOCTYPE, namespaces: { [MDL_NS]: MDL_ELEMENTS } });
  return { wallet, pid, mdl };
}

describe('DC API', () => {
  it('dc_api.jwt, unsigned: PID + mDL with the origin as audience and in the DC API handover', async () => {
    const { wallet } = await walletWithPidAndMdl();
    const created = await env.rp.create({
      responseMode: 'dc_api.jwt',
      protocol: 'openid4vp-v1-unsigned',
      profile: 'haip',
      query: { type: 'DCQL', dcql: { credentials: [pidQuery(), mdlQuery()] } },
    });
    const getRequest = created.digitalCredentialGetRequest as DcApiGetRequest;
    expect(getRequest.protocol).toBe('openid4vp-v1-unsigned');
    const { digitalCredentialGetResponse } = await wallet.respondDcApi(getRequest, { origin: ORIGIN });
    expect(Object.keys(digitalCredentialGetResponse)).toEqual(['response']);
    const posted = await env.rp.dcApi(created.authorizationId, 'dc_api.jwt', { origin: ORIGIN, digitalCredentialGetResponse });
    expect(posted).toEqual({ status: 200, body: { status: 'authorized' } });
    expect(failedCodes(await env.rp.policyResponse(created.authorizationId))).toEqual([]);
    const credentials = await env.rp.credentials(created.authorizationId);
    expect(credentials.map((c) => c.credentialType).sort()).toEqual([MDL_DOCTYPE, PID_VCT].sort());
  });

  it('dc_api.jwt answered for another origin → rejected (audience and handover bound to the origin)', async () => {
    const { wallet } = await walletWithPidAndMdl();
    const created = await env.rp.create({ responseMode: 'dc_api.jwt', protocol: 'openid4vp-v1-unsigned', query: { type: 'DCQL', dcql: { credentials: [pidQuery()] } } });
    const { digitalCredentialGetResponse } = await wallet.respondDcApi(created.digitalCredentialGetRequest as DcApiGetRequest, { origin: 'https://evil.example' });
    const posted = await env.rp.dcApi(created.authorizationId, 'dc_api.jwt', { origin: ORIGIN, digitalCredentialGetResponse });
    expect(posted.body).toEqual({ status: 'rejected' });
    expect(failedCodes(await env.rp.policyResponse(created.authorizationId))).toContain('holder_binding.aud_mismatch');
  });

  it('dc_api, signed request with expected_origins: the wallet verifies data.request, plain vp_token', async () => {
    const { wallet } = await walletWithPidAndMdl();
    const created = await env.rp.create({
      responseMode: 'dc_api',
      protocol: 'openid4vp-v1-signed',
      expectedOrigins: [ORIGIN],
      query: { type: 'DCQL', dcql: { credentials: [pidQuery()] } },
    });
    const getRequest = created.digitalCredentialGetRequest as DcApiGetRequest;
    expect(typeof getRequest.data.request).toBe('string');
    const { request, digitalCredentialGetResponse } = await wallet.respondDcApi(getRequest, { origin: ORIGIN, verifierTrustAnchors: [env.verifierRootPem] });
    expect(request.clientId?.startsWith('x509_hash:')).toBe(true);
    expect(Object.keys(digitalCredentialGetResponse)).toEqual(['vp_token']);
    const posted = await env.rp.dcApi(created.authorizationId, 'dc_api', { origin: ORIGIN, digitalCredentialGetResponse });
    expect(posted.body).toEqual({ status: 'authorized' });
    expect((await env.rp.credentials(created.authorizationId))[0]?.claims).toMatchObject({ given_name: 'Erika' });
  });
});

describe('DC API, multi-signed by several signing identities of one instance', () => {
  let multi: E2eEnvironment;
  let second: Awaited<ReturnType<typeof generateDevSigningKey>>;
  beforeAll(async () => {
    // A second chain under its own root, signing under x509_san_dns; the primary signs under x509_hash.
    second = await generateDevSigningKey({ dnsName: 'second.verifier.example' });
    multi = await startE2eEnvironment({ issuer: env.issuer, additionalSigning: [{ ...second.signing, clientIdPrefix: 'x509_san_dns' }] });
  });
  afterAll(async () => multi.close());

  async function createMultiSigned() {
    return multi.rp.create({
      responseMode: 'dc_api.jwt',
      protocol: 'openid4vp-v1-multisigned',
      expectedOrigins: [ORIGIN],
      query: { type: 'DCQL', dcql: { credentials: [pidQuery()] } },
    });
  }

  it('carries one signature per identity, each with its own client_id and x5c, all of which the wallet verifies', async () => {
    const { wallet } = await walletWithPidAndMdl();
    const created = await createMultiSigned();
    const getRequest = created.digitalCredentialGetRequest as DcApiGetRequest;
    const request = await wallet.receiveDcApi(getRequest, ORIGIN, { verifierTrustAnchors: [multi.verifierRootPem, second.rootCertificatePem] });
    expect(request.signatures?.map((s) => s.clientId)).toEqual([expect.stringMatching(/^x509_hash:/), 'x509_san_dns:second.verifier.example']);
    expect(request.signatures?.every((s) => s.trusted)).toBe(true);
    expect(request.signatures?.[0]?.x5c).not.toEqual(request.signatures?.[1]?.x5c);
  });

  it('a wallet trusting only the second identity\'s root verifies the request through that signature and is authorized', async () => {
    const { wallet } = await walletWithPidAndMdl();
    const created = await createMultiSigned();
    const getRequest = created.digitalCredentialGetRequest as DcApiGetRequest;
    const { request, digitalCredentialGetResponse } = await wallet.respondDcApi(getRequest, { origin: ORIGIN, verifierTrustAnchors: [second.rootCertificatePem] });
    expect(request.clientId).toBe('x509_san_dns:second.verifier.example');
    expect(request.signatures?.map((s) => s.trusted)).toEqual([false, true]);
    const posted = await multi.rp.dcApi(created.authorizationId, 'dc_api.jwt', { origin: ORIGIN, digitalCredentialGetResponse });
    expect(posted.body).toEqual({ status: 'authorized' });
  });

  it('a wallet trusting neither root refuses the request', async () => {
    const { wallet } = await walletWithPidAndMdl();
    const stranger = await generateDevSigningKey();
    const created = await createMultiSigned();
    await expect(wallet.receiveDcApi(created.digitalCredentialGetRequest as DcApiGetRequest, ORIGIN, { verifierTrustAnchors: [stranger.rootCertificatePem] })).rejects.toThrow(
      /no signature .* trusted/,
    );
  });

  it('signed (single JWS) and redirect flows keep using the primary identity only', async () => {
    const created = await multi.rp.create({ responseMode: 'dc_api', protocol: 'openid4vp-v1-signed', expectedOrigins: [ORIGIN], query: { type: 'DCQL', dcql: { credentials: [pidQuery()] } } });
    const { wallet } = await walletWithPidAndMdl();
    const request = await wallet.receiveDcApi(created.digitalCredentialGetRequest as DcApiGetRequest, ORIGIN, { verifierTrustAnchors: [multi.verifierRootPem] });
    expect(request.clientId?.startsWith('x509_hash:')).toBe(true);
  });
});
