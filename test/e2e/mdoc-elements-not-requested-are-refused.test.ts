import { type AnnexCGetRequest, type DcApiGetRequest, createTestWallet } from '@vp-authorizer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eEnvironment, MDL_DOCTYPE, MDL_ELEMENTS, MDL_NS, failedCodes, mdlQuery, runRedirectFlow, startE2eEnvironment } from './e2e-harness.js';

// OpenID4VP 1.0 section 6.4: a wallet must not send selectively disclosable claims the request did
// not select, and every mdoc data element is one. An mdoc that discloses more than its query's
// claims ends rejected with format.claim_not_requested, over OpenID4VP (redirect and DC API) as
// over ISO/IEC 18013-7 Annex C: one check, in the format policy both paths run.
const ORIGIN = 'https://rp.example';
let env: E2eEnvironment;
beforeAll(async () => {
  env = await startE2eEnvironment();
});
afterAll(async () => env.close());

async function walletWithMdl() {
  const wallet = await createTestWallet();
  const mdl = await wallet.addMdoc(env.issuer, { docType: MDL_DOCTYPE, namespaces: { [MDL_NS]: MDL_ELEMENTS } });
  return { wallet, mdl };
}
const asked = [[MDL_NS, 'family_name'], [MDL_NS, 'given_name']];
const overDisclosed = [...asked, [MDL_NS, 'document_number']];

describe('mdoc elements no credential query selected', () => {
  it('direct_post.jwt: the requested elements authorize; one more ends rejected with format.claim_not_requested, naming it', async () => {
    const { wallet, mdl } = await walletWithMdl();
    const body = { responseMode: 'direct_post.jwt', profile: 'haip', query: { type: 'DCQL', dcql: { credentials: [mdlQuery()] } } };
    const honest = await runRedirectFlow(env, wallet, body, { presentations: { mdl: [{ credential: mdl, disclose: asked }] } });
    expect(honest.status).toBe('authorized');
    const flow = await runRedirectFlow(env, wallet, body, { presentations: { mdl: [{ credential: mdl, disclose: overDisclosed }] } });
    expect(flow.status).toBe('rejected');
    expect(failedCodes(flow.policies)).toEqual(['format.claim_not_requested']);
    expect(JSON.stringify(flow.policies)).toContain(`${MDL_NS} / document_number`);
  });

  it('dc_api.jwt (OpenID4VP over the Digital Credentials API): rejected with the same code', async () => {
    const { wallet, mdl } = await walletWithMdl();
    const created = await env.rp.create({ responseMode: 'dc_api.jwt', protocol: 'openid4vp-v1-unsigned', query: { type: 'DCQL', dcql: { credentials: [mdlQuery()] } } });
    const { digitalCredentialGetResponse } = await wallet.respondDcApi(created.digitalCredentialGetRequest as DcApiGetRequest, { origin: ORIGIN, presentations: { mdl: [{ credential: mdl, disclose: overDisclosed }] } });
    const posted = await env.rp.dcApi(created.authorizationId, 'dc_api.jwt', { origin: ORIGIN, digitalCredentialGetResponse });
    expect(posted.body).toEqual({ status: 'rejected' });
    expect(failedCodes(await env.rp.policyResponse(created.authorizationId))).toEqual(['format.claim_not_requested']);
  });

  it('org-iso-mdoc (Annex C): rejected with the same code', async () => {
    const { wallet } = await walletWithMdl();
    const created = await env.rp.create({ responseMode: 'dc_api', protocol: 'org-iso-mdoc', expectedOrigins: [ORIGIN], query: { type: 'DCQL', dcql: { credentials: [mdlQuery()] } } });
    const { digitalCredentialGetResponse } = await wallet.respondAnnexC(created.digitalCredentialGetRequest as AnnexCGetRequest, { origin: ORIGIN, tamper: { extraElements: [[MDL_NS, 'document_number']] } });
    const posted = await env.rp.dcApi(created.authorizationId, 'dc_api', { origin: ORIGIN, digitalCredentialGetResponse });
    expect(posted.body).toEqual({ status: 'rejected' });
    expect(failedCodes(await env.rp.policyResponse(created.authorizationId))).toEqual(['format.claim_not_requested']);
  });
});
