import { generateP256KeyPair, type AnnexCGetRequest, type AnnexCTamper, type DcApiGetRequest, createTestIssuer, createTestWallet } from '@vp-authorizer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eEnvironment, MDL_DOCTYPE, MDL_ELEMENTS, MDL_NS, failedCodes, mdlQuery, pidQuery, startE2eEnvironment } from './e2e-harness.js';

// ISO/IEC 18013-7 Annex C (protocol org-iso-mdoc) over HTTP, with the test wallet answering as
// Safari hands an Apple Wallet answer back: HPKE to the request's recipient key, the Annex C
// SessionTranscript as HPKE info and under DeviceAuth.
const ORIGIN = 'https://rp.example';
const PID_MDOC = 'eu.europa.ec.eudi.pid.1';
let env: E2eEnvironment;
beforeAll(async () => {
  env = await startE2eEnvironment();
});
afterAll(async () => env.close());

async function walletWithMdocs(issuer = env.issuer) {
  const wallet = await createTestWallet();
  await wallet.addMdoc(issuer, { docType: MDL_DOCTYPE, namespaces: { [MDL_NS]: MDL_ELEMENTS } });
  await wallet.addMdoc(issuer, { docType: PID_MDOC, namespaces: { [PID_MDOC]: { family_name: 'Mustermann', birth_date: '1984-01-26' } } });
  return wallet;
}

const annexCBody = (credentials: unknown[] = [mdlQuery()]) => ({ responseMode: 'dc_api', protocol: 'org-iso-mdoc', expectedOrigins: [ORIGIN], query: { type: 'DCQL', dcql: { credentials } } });

async function answer(tamper?: AnnexCTamper, options: { origin?: string; postedOrigin?: string; wallet?: Awaited<ReturnType<typeof walletWithMdocs>> } = {}) {
  const wallet = options.wallet ?? (await walletWithMdocs());
  const created = await env.rp.create(annexCBody());
  const getRequest = created.digitalCredentialGetRequest as AnnexCGetRequest;
  const { digitalCredentialGetResponse } = await wallet.respondAnnexC(getRequest, { origin: options.origin ?? ORIGIN, ...(tamper ? { tamper } : {}) });
  const posted = await env.rp.dcApi(created.authorizationId, 'dc_api', { origin: options.postedOrigin ?? ORIGIN, digitalCredentialGetResponse });
  return { created, posted };
}

describe('DC API, protocol org-iso-mdoc (ISO/IEC 18013-7 Annex C)', () => {
  it('authorizes an mDL: decrypts, verifies IssuerAuth and DeviceAuth over the Annex C transcript, and extracts the claims', async () => {
    const { created, posted } = await answer();
    expect((created.digitalCredentialGetRequest as DcApiGetRequest).protocol).toBe('org-iso-mdoc');
    expect(posted).toEqual({ status: 200, body: { status: 'authorized' } });
    expect(failedCodes(await env.rp.policyResponse(created.authorizationId))).toEqual([]);
    const credentials = await env.rp.credentials(created.authorizationId);
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ format: 'mso_mdoc', credentialType: MDL_DOCTYPE, claims: { family_name: 'Mustermann', given_name: 'Erika' } });
  });

  it('authorizes two DocRequests (mDL and PID) answered in one DeviceResponse, each under its credential query', async () => {
    const wallet = await walletWithMdocs();
    const pid = { id: 'pid', format: 'mso_mdoc', meta: { doctype_value: PID_MDOC }, claims: [{ path: [PID_MDOC, 'birth_date'] }] };
    const created = await env.rp.create(annexCBody([mdlQuery(), pid]));
    const { digitalCredentialGetResponse } = await wallet.respondAnnexC(created.digitalCredentialGetRequest as AnnexCGetRequest, { origin: ORIGIN });
    const posted = await env.rp.dcApi(created.authorizationId, 'dc_api', { origin: ORIGIN, digitalCredentialGetResponse });
    expect(posted.body).toEqual({ status: 'authorized' });
    const credentials = await env.rp.credentials(created.authorizationId);
    expect(credentials.map((c) => [c.path[0], c.credentialType])).toEqual([['mdl', MDL_DOCTYPE], ['pid', PID_MDOC]]);
  });

  it('accepts the bare data as well when one protocol was offered', async () => {
    const wallet = await walletWithMdocs();
    const created = await env.rp.create(annexCBody());
    const { digitalCredentialGetResponse } = await wallet.respondAnnexC(created.digitalCredentialGetRequest as AnnexCGetRequest, { origin: ORIGIN });
    const posted = await env.rp.dcApi(created.authorizationId, 'dc_api', { origin: ORIGIN, digitalCredentialGetResponse: digitalCredentialGetResponse.data });
    expect(posted.body).toEqual({ status: 'authorized' });
  });

  it('a response for another origin: refused by origin when not expected, by decryption when the origin is expected but not the one the wallet used', async () => {
    const notExpected = await answer(undefined, { postedOrigin: 'https://evil.example' });
    expect(notExpected.posted).toMatchObject({ status: 400, body: { type: 'authorization.origin_mismatch' } });
    const otherTranscript = await answer({ encryptForOrigin: 'https://evil.example' });
    expect(otherTranscript.posted).toMatchObject({ status: 400, body: { type: 'authorization.annex_c_decryption_failed' } });
    expect(await env.rp.status(otherTranscript.created.authorizationId)).toBe('pending');
  });

  it('a response encrypted to another recipient key → 400 annex_c_decryption_failed, nothing changes', async () => {
    const { created, posted } = await answer({ recipientPublicJwk: (await generateP256KeyPair()).publicJwk });
    expect(posted).toMatchObject({ status: 400, body: { type: 'authorization.annex_c_decryption_failed' } });
    expect(await env.rp.status(created.authorizationId)).toBe('pending');
  });

  it('DeviceAuth over another transcript → rejected with mdoc.device_signature_invalid', async () => {
    const { created, posted } = await answer({ deviceAuthOrigin: 'https://evil.example' });
    expect(posted.body).toEqual({ status: 'rejected' });
    expect(failedCodes(await env.rp.policyResponse(created.authorizationId))).toContain('mdoc.device_signature_invalid');
  });

  it('an mdoc from an issuer nobody trusts → rejected', async () => {
    const wallet = await walletWithMdocs(await createTestIssuer());
    const { created, posted } = await answer(undefined, { wallet });
    expect(posted.body).toEqual({ status: 'rejected' });
    expect(failedCodes(await env.rp.policyResponse(created.authorizationId)).length).toBeGreaterThan(0);
  });

  it('a response naming a protocol the authorization did not offer → 400 protocol_not_offered', async () => {
    const wallet = await walletWithMdocs();
    const created = await env.rp.create({ responseMode: 'dc_api', protocol: 'openid4vp-v1-unsigned', query: { type: 'DCQL', dcql: { credentials: [pidQuery()] } } });
    const annexC = await env.rp.create(annexCBody());
    const { digitalCredentialGetResponse } = await wallet.respondAnnexC(annexC.digitalCredentialGetRequest as AnnexCGetRequest, { origin: ORIGIN });
    const posted = await env.rp.dcApi(created.authorizationId, 'dc_api', { origin: ORIGIN, digitalCredentialGetResponse });
    expect(posted).toMatchObject({ status: 400, body: { type: 'authorization.protocol_not_offered' } });
  });

  it('the recipient key is gone once the authorization is terminal: a replay is refused as already answered', async () => {
    const wallet = await walletWithMdocs();
    const created = await env.rp.create(annexCBody());
    const { digitalCredentialGetResponse } = await wallet.respondAnnexC(created.digitalCredentialGetRequest as AnnexCGetRequest, { origin: ORIGIN });
    expect((await env.rp.dcApi(created.authorizationId, 'dc_api', { origin: ORIGIN, digitalCredentialGetResponse })).body).toEqual({ status: 'authorized' });
    const replay = await env.rp.dcApi(created.authorizationId, 'dc_api', { origin: ORIGIN, digitalCredentialGetResponse });
    expect(replay).toMatchObject({ status: 400, body: { type: 'authorization.already_answered' } });
  });
});

describe('DC API, OpenID4VP and org-iso-mdoc offered in one create call', () => {
  const both = () => env.rp.create({ responseMode: 'dc_api.jwt', protocols: ['openid4vp-v1-signed', 'org-iso-mdoc'], expectedOrigins: [ORIGIN], query: { type: 'DCQL', dcql: { credentials: [mdlQuery()] } } });
  const requestsOf = (created: Record<string, unknown>) => created.digitalCredentialGetRequests as DcApiGetRequest[];

  it('hands out one request per protocol in order; an Annex C answer is verified as Annex C', async () => {
    const wallet = await walletWithMdocs();
    const created = await both();
    expect(requestsOf(created).map((r) => r.protocol)).toEqual(['openid4vp-v1-signed', 'org-iso-mdoc']);
    const { digitalCredentialGetResponse } = await wallet.respondAnnexC(requestsOf(created)[1] as unknown as AnnexCGetRequest, { origin: ORIGIN });
    const posted = await env.rp.dcApi(created.authorizationId, 'dc_api.jwt', { origin: ORIGIN, digitalCredentialGetResponse });
    expect(posted.body).toEqual({ status: 'authorized' });
    expect((await env.rp.credentials(created.authorizationId))[0]).toMatchObject({ credentialType: MDL_DOCTYPE });
  });

  it('an OpenID4VP answer to the same kind of request is verified as OpenID4VP', async () => {
    const wallet = await walletWithMdocs();
    const created = await both();
    const { digitalCredentialGetResponse } = await wallet.respondDcApi(requestsOf(created)[0]!, { origin: ORIGIN, verifierTrustAnchors: [env.verifierRootPem] });
    const posted = await env.rp.dcApi(created.authorizationId, 'dc_api.jwt', { origin: ORIGIN, digitalCredentialGetResponse: { protocol: 'openid4vp-v1-signed', data: digitalCredentialGetResponse } });
    expect(posted.body).toEqual({ status: 'authorized' });
  });

  it('the bare data is refused when several protocols were offered, and a protocol not offered is refused', async () => {
    const wallet = await walletWithMdocs();
    const created = await both();
    const { digitalCredentialGetResponse } = await wallet.respondAnnexC(requestsOf(created)[1] as unknown as AnnexCGetRequest, { origin: ORIGIN });
    const bare = await env.rp.dcApi(created.authorizationId, 'dc_api.jwt', { origin: ORIGIN, digitalCredentialGetResponse: digitalCredentialGetResponse.data });
    expect(bare).toMatchObject({ status: 400, body: { type: 'authorization.invalid_response' } });
    const unsigned = await env.rp.dcApi(created.authorizationId, 'dc_api.jwt', { origin: ORIGIN, digitalCredentialGetResponse: { protocol: 'openid4vp-v1-unsigned', data: { response: 'x' } } });
    expect(unsigned).toMatchObject({ status: 400, body: { type: 'authorization.protocol_not_offered' } });
    expect(await env.rp.status(created.authorizationId)).toBe('pending');
  });
});
