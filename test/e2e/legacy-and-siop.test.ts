import { createTestWallet } from '@vp-authorizer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eEnvironment, PID_CLAIMS, PID_VCT, failedCodes, pidQuery, runRedirectFlow, startE2eEnvironment } from './e2e-harness.js';

let env: E2eEnvironment;
beforeAll(async () => {
  env = await startE2eEnvironment();
});
afterAll(async () => env.close());

describe('Presentation Exchange with a JWT VP over direct_post', () => {
  const pe = (dataModelPath: string) => ({
    responseMode: 'direct_post',
    query: {
      type: 'DIF.PresentationExchange',
      presentationDefinition: {
        id: 'degree-request',
        input_descriptors: [{ id: 'degree', format: { jwt_vp_json: { alg: ['ES256'] } }, constraints: { fields: [{ path: [dataModelPath] }] } }],
      },
    },
  });

  it('VCDM 1.1 VP (did:jwk holder, x5c issuer): authorized, claims from credentialSubject', async () => {
    const wallet = await createTestWallet();
    await wallet.addJwtVc(env.issuer, { dataModel: '1.1', claims: { degree: 'BSc Computer Science' }, issuerIdentity: 'x5c' });
    const flow = await runRedirectFlow(env, wallet, pe('$.vc.credentialSubject.degree'));
    expect(flow.result.prepared.form).toHaveProperty('presentation_submission');
    expect(failedCodes(flow.policies)).toEqual([]);
    expect(flow.status).toBe('authorized');
    const credentials = await env.rp.credentials(flow.created.authorizationId);
    expect(credentials[0]?.claims).toMatchObject({ degree: 'BSc Computer Science' });
  });

  it('VP with the wrong nonce → rejected', async () => {
    const wallet = await createTestWallet();
    const vc = await wallet.addJwtVc(env.issuer, { dataModel: '1.1', claims: { degree: 'BSc' }, issuerIdentity: 'x5c' });
    const flow = await runRedirectFlow(env, wallet, pe('$.vc.credentialSubject.degree'), { presentations: { degree: [{ credential: vc, tamper: { nonce: 'wrong' } }] } });
    expect(flow.status).toBe('rejected');
    expect(failedCodes(flow.policies)).toContain('holder_binding.nonce_mismatch');
  });

  it('a did:jwk-issued VC when trusted issuers are configured → trusted_issuer.untrusted (no chain to check)', async () => {
    const wallet = await createTestWallet();
    await wallet.addJwtVc(env.issuer, { dataModel: '1.1', claims: { degree: 'BSc' }, issuerIdentity: 'did:jwk' });
    const flow = await runRedirectFlow(env, wallet, pe('$.vc.credentialSubject.degree'));
    expect(flow.status).toBe('rejected');
    expect(failedCodes(flow.policies)).toContain('trusted_issuer.untrusted');
  });
});

describe('vp_token id_token with a self-issued ID token', () => {
  const siop = { responseMode: 'direct_post', responseType: 'vp_token id_token', query: { type: 'DCQL', dcql: { credentials: [pidQuery()] } } };

  it('authorizes with a valid SIOP ID token next to the SD-JWT', async () => {
    const wallet = await createTestWallet();
    await wallet.addSdJwtVc(env.issuer, { vct: PID_VCT, claims: PID_CLAIMS });
    const flow = await runRedirectFlow(env, wallet, siop);
    expect(Object.keys(flow.result.prepared.form!).sort()).toEqual(['id_token', 'state', 'vp_token']);
    expect(failedCodes(flow.policies)).toEqual([]);
    expect(flow.status).toBe('authorized');
  });

  it('ID token with the wrong nonce → rejected with id_token.nonce_mismatch', async () => {
    const wallet = await createTestWallet();
    await wallet.addSdJwtVc(env.issuer, { vct: PID_VCT, claims: PID_CLAIMS });
    const flow = await runRedirectFlow(env, wallet, siop, { idToken: { nonce: 'wrong' } });
    expect(flow.status).toBe('rejected');
    expect(failedCodes(flow.policies)).toContain('id_token.nonce_mismatch');
  });

  it('ID token signed by a key other than sub_jwk → rejected with id_token.signature_invalid', async () => {
    const wallet = await createTestWallet();
    await wallet.addSdJwtVc(env.issuer, { vct: PID_VCT, claims: PID_CLAIMS });
    const flow = await runRedirectFlow(env, wallet, siop, { idToken: { wrongKey: true } });
    expect(flow.status).toBe('rejected');
    expect(failedCodes(flow.policies)).toContain('id_token.signature_invalid');
  });
});

describe('DCQL jwt_vc_json with a VCDM 2.0 VP over direct_post.jwt', () => {
  it('authorizes an EnvelopedVerifiableCredential inside a vp+jwt', async () => {
    const wallet = await createTestWallet();
    await wallet.addJwtVc(env.issuer, { dataModel: '2.0', claims: { degree: 'MSc' }, issuerIdentity: 'x5c', types: ['UniversityDegree'] });
    const flow = await runRedirectFlow(env, wallet, {
      responseMode: 'direct_post.jwt',
      query: {
        type: 'DCQL',
        dcql: { credentials: [{ id: 'degree', format: 'jwt_vc_json', meta: { type_values: [['https://www.w3.org/2018/credentials#VerifiableCredential']] }, claims: [{ path: ['credentialSubject', 'degree'] }] }] },
      },
    });
    expect(failedCodes(flow.policies)).toEqual([]);
    expect(flow.status).toBe('authorized');
    expect((await env.rp.credentials(flow.created.authorizationId))[0]?.claims).toMatchObject({ degree: 'MSc' });
  });
});
