import { createTestWallet } from '@vp-authorizer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type E2eEnvironment,
  MDL_DOCTYPE,
  MDL_ELEMENTS,
  MDL_NS,
  PID_CLAIMS,
  PID_VCT,
  failedCodes,
  mdlQuery,
  pidQuery,
  responseCodeOf,
  runRedirectFlow,
  startE2eEnvironment,
} from './e2e-harness.js';

let env: E2eEnvironment;
beforeAll(async () => {
  env = await startE2eEnvironment();
});
afterAll(async () => env.close());

describe('mdoc mDL over direct_post.jwt', () => {
  it('authorizes with a deviceSignature over the 1.0 SessionTranscript and exposes the elements', async () => {
    const wallet = await createTestWallet();
    await wallet.addMdoc(env.issuer, { docType: MDL_DOCTYPE, namespaces: { [MDL_NS]: MDL_ELEMENTS } });
    const flow = await runRedirectFlow(env, wallet, { responseMode: 'direct_post.jwt', profile: 'haip', query: { type: 'DCQL', dcql: { credentials: [mdlQuery()] } } });
    expect(failedCodes(flow.policies)).toEqual([]);
    expect(flow.status).toBe('authorized');
    const credentials = await env.rp.credentials(flow.created.authorizationId);
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({
      format: 'mso_mdoc',
      credentialType: MDL_DOCTYPE,
      claims: { family_name: 'Mustermann', given_name: 'Erika' },
      namespaces: { [MDL_NS]: { family_name: 'Mustermann', given_name: 'Erika' } },
    });
    expect(credentials[0]!.claims.document_number).toBeUndefined();
    expect(credentials[0]!.namespaces![MDL_NS]!.document_number).toBeUndefined();
    expect((await env.rp.resolve(responseCodeOf(flow.result.body))).body).toEqual({ authorization_id: flow.created.authorizationId, status: 'authorized' });
  });

  it('also accepts the response encrypted by @openid4vc/openid4vp (apv in the JWE header) with A128GCM', async () => {
    const wallet = await createTestWallet();
    await wallet.addMdoc(env.issuer, { docType: MDL_DOCTYPE, namespaces: { [MDL_NS]: MDL_ELEMENTS } });
    const flow = await runRedirectFlow(
      env,
      wallet,
      { responseMode: 'direct_post.jwt', profile: 'haip', query: { type: 'DCQL', dcql: { credentials: [mdlQuery()] } } },
      { encryption: 'openid4vc', enc: 'A128GCM' },
    );
    expect(failedCodes(flow.policies)).toEqual([]);
    expect(flow.status).toBe('authorized');
  });
});

describe('SD-JWT PID and mDL in one DCQL query with credential_sets', () => {
  const dcql = {
    credentials: [pidQuery(), mdlQuery(['family_name'])],
    credential_sets: [{ options: [['pid'], ['mdl']] }, { options: [['mdl']], required: false }],
  };

  it('authorizes when the wallet presents both; /credentials has both', async () => {
    const wallet = await createTestWallet();
    const pid = await wallet.addSdJwtVc(env.issuer, { vct: PID_VCT, claims: PID_CLAIMS });
    const mdl = await wallet.addMdoc(env.issuer, { docType: MDL_DOCTYPE, namespaces: { [MDL_NS]: MDL_ELEMENTS } });
    const flow = await runRedirectFlow(
      env,
      wallet,
      { responseMode: 'direct_post.jwt', profile: 'haip', query: { type: 'DCQL', dcql } },
      { presentations: { pid: [{ credential: pid, disclose: [['given_name'], ['family_name']] }], mdl: [{ credential: mdl, disclose: [[MDL_NS, 'family_name']] }] } },
    );
    expect(failedCodes(flow.policies)).toEqual([]);
    expect(flow.status).toBe('authorized');
    const credentials = await env.rp.credentials(flow.created.authorizationId);
    expect(credentials.map((c) => c.format).sort()).toEqual(['dc+sd-jwt', 'mso_mdoc']);
  });

  it('authorizes with only the PID (first option of the required set, the optional set left out)', async () => {
    const wallet = await createTestWallet();
    await wallet.addSdJwtVc(env.issuer, { vct: PID_VCT, claims: PID_CLAIMS });
    const flow = await runRedirectFlow(env, wallet, { responseMode: 'direct_post.jwt', profile: 'haip', query: { type: 'DCQL', dcql } });
    expect(Object.keys(flow.result.prepared.payload.vp_token as object)).toEqual(['pid']);
    expect(failedCodes(flow.policies)).toEqual([]);
    expect(flow.status).toBe('authorized');
  });
});

describe('mdoc negative cases', () => {
  const haipMdl = { responseMode: 'direct_post.jwt', profile: 'haip', query: { type: 'DCQL', dcql: { credentials: [mdlQuery()] } } };

  it('deviceSignature over a SessionTranscript with another nonce → mdoc.device_signature_invalid', async () => {
    const wallet = await createTestWallet();
    const mdl = await wallet.addMdoc(env.issuer, { docType: MDL_DOCTYPE, namespaces: { [MDL_NS]: MDL_ELEMENTS } });
    const flow = await runRedirectFlow(env, wallet, haipMdl, { presentations: { mdl: [{ credential: mdl, tamper: { nonce: 'another-nonce' } }] } });
    expect(flow.status).toBe('rejected');
    expect(failedCodes(flow.policies)).toContain('mdoc.device_signature_invalid');
  });

  it('deviceSignature by another key → mdoc.device_signature_invalid', async () => {
    const wallet = await createTestWallet();
    const mdl = await wallet.addMdoc(env.issuer, { docType: MDL_DOCTYPE, namespaces: { [MDL_NS]: MDL_ELEMENTS } });
    const flow = await runRedirectFlow(env, wallet, haipMdl, { presentations: { mdl: [{ credential: mdl, tamper: { wrongHolderKey: true } }] } });
    expect(flow.status).toBe('rejected');
    expect(failedCodes(flow.policies)).toContain('mdoc.device_signature_invalid');
  });

  it('bad issuerAuth signature → proof.signature_invalid', async () => {
    const wallet = await createTestWallet();
    await wallet.addMdoc(env.issuer, { docType: MDL_DOCTYPE, namespaces: { [MDL_NS]: MDL_ELEMENTS }, tamper: 'issuer-signature' });
    const flow = await runRedirectFlow(env, wallet, haipMdl);
    expect(flow.status).toBe('rejected');
    expect(failedCodes(flow.policies)).toContain('proof.signature_invalid');
  });

  it('mdoc from an untrusted IACA → trusted_issuer.untrusted', async () => {
    const { createTestIssuer } = await import('@vp-authorizer/testing');
    const wallet = await createTestWallet();
    await wallet.addMdoc(await createTestIssuer(), { docType: MDL_DOCTYPE, namespaces: { [MDL_NS]: MDL_ELEMENTS } });
    const flow = await runRedirectFlow(env, wallet, haipMdl);
    expect(flow.status).toBe('rejected');
    expect(failedCodes(flow.policies)).toContain('trusted_issuer.untrusted');
  });
});
