import { type PresentationTamper, type SdJwtWalletCredential, type TestIssuer, type TestWallet, createTestIssuer, createTestWallet } from '@vp-authorizer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eEnvironment, PID_CLAIMS, PID_VCT, failedCodes, pidQuery, runRedirectFlow, startE2eEnvironment } from './e2e-harness.js';

let env: E2eEnvironment;
beforeAll(async () => {
  env = await startE2eEnvironment();
});
afterAll(async () => env.close());

const haipPid = { responseMode: 'direct_post.jwt', profile: 'haip', query: { type: 'DCQL', dcql: { credentials: [pidQuery()] } } };
const YEAR_S = 365 * 86_400;

async function walletWithPid(options: Partial<Parameters<TestWallet['addSdJwtVc']>[1]> & { issuer?: TestIssuer } = {}): Promise<{ wallet: TestWallet; pid: SdJwtWalletCredential }> {
  const { issuer = env.issuer, ...credentialOptions } = options;
  const wallet = await createTestWallet();
  const pid = await wallet.addSdJwtVc(issuer, { vct: PID_VCT, claims: PID_CLAIMS, ...credentialOptions });
  return { wallet, pid };
}

async function rejectedWith(tamper: PresentationTamper, credentialOptions: Parameters<typeof walletWithPid>[0] = {}) {
  const { wallet, pid } = await walletWithPid(credentialOptions);
  const flow = await runRedirectFlow(env, wallet, haipPid, { presentations: { pid: [{ credential: pid, tamper }] } });
  // A policy rejection is refused to the wallet (default openId4vp.rejectedResponse: 'error').
  expect(flow.result.status).toBe(400);
  expect(flow.result.body).toMatchObject({ error: 'invalid_request' });
  expect(flow.status).toBe('rejected');
  expect(await env.rp.credentials(flow.created.authorizationId)).toEqual([]);
  return failedCodes(flow.policies);
}

describe('SD-JWT negative cases end in rejected with the right code', () => {
  it('bad issuer signature → proof.signature_invalid', async () => {
    expect(await rejectedWith({}, { tamper: 'issuer-signature' })).toContain('proof.signature_invalid');
  });

  it('KB-JWT signed with another key → holder_binding.signature_invalid', async () => {
    expect(await rejectedWith({ wrongHolderKey: true })).toContain('holder_binding.signature_invalid');
  });

  it('wrong nonce → holder_binding.nonce_mismatch', async () => {
    expect(await rejectedWith({ nonce: 'not-the-request-nonce' })).toContain('holder_binding.nonce_mismatch');
  });

  it('wrong aud → holder_binding.aud_mismatch', async () => {
    expect(await rejectedWith({ audience: 'x509_hash:c29tZS1vdGhlci12ZXJpZmllcg' })).toContain('holder_binding.aud_mismatch');
  });

  it('bad sd_hash → holder_binding.sd_hash_mismatch', async () => {
    expect(await rejectedWith({ sdHash: 'wrong' })).toContain('holder_binding.sd_hash_mismatch');
  });

  it('KB-JWT iat a year in the past → holder_binding.iat_invalid', async () => {
    expect(await rejectedWith({ iatOffsetSeconds: -YEAR_S })).toContain('holder_binding.iat_invalid');
  });

  it('KB-JWT iat a year in the future → holder_binding.iat_invalid', async () => {
    expect(await rejectedWith({ iatOffsetSeconds: YEAR_S })).toContain('holder_binding.iat_invalid');
  });

  it('missing KB-JWT under HAIP → holder_binding.missing', async () => {
    expect(await rejectedWith({ omitHolderBinding: true })).toContain('holder_binding.missing');
  });

  it('credential without cnf under HAIP → holder_binding.missing', async () => {
    // The wallet cannot sign a KB-JWT without a cnf key, so it presents none: HAIP requires one.
    const { wallet, pid } = await walletWithPid({ holderBinding: false });
    const flow = await runRedirectFlow(env, wallet, haipPid, { presentations: { pid: [{ credential: pid, tamper: { omitHolderBinding: true } }] } });
    expect(flow.result.status).toBe(400);
    expect(flow.status).toBe('rejected');
    expect(await env.rp.credentials(flow.created.authorizationId)).toEqual([]);
    // The verifier fails exactly the holder binding of the presented PID, with holder_binding.missing.
    const verifierFailures = flow.policies.filter((r) => r.service === 'verifier' && r.error).map((r) => `${r.path.join('/')}:${r.policy}:${r.error!.code}`);
    expect(verifierFailures).toEqual(['pid/0:holderBinding:holder_binding.missing']);
    // The validator independently reports the unmet DCQL require_cryptographic_holder_binding.
    expect(failedCodes(flow.policies).sort()).toEqual(['credential_query.holder_binding_missing', 'credential_query.unsatisfied', 'holder_binding.missing']);
  });

  it('issuer from an untrusted CA → trusted_issuer.untrusted', async () => {
    const stranger = await createTestIssuer({ commonName: 'untrusted issuer' });
    expect(await rejectedWith({}, { issuer: stranger })).toContain('trusted_issuer.untrusted');
  });

  it('expired credential → validity.expired', async () => {
    expect(await rejectedWith({}, { expiresInSeconds: -3600 })).toContain('validity.expired');
  });

  it('revoked status (Token Status List on 127.0.0.1) → status.revoked; a valid entry of the same list passes', async () => {
    const statusServer = await env.issuer.statusList.startStatusListServer();
    try {
      const valid = statusServer.allocate();
      const revoked = statusServer.allocate();
      // Revoke before any verifier fetched the list: verifiers may cache it until exp/ttl.
      statusServer.setStatus(revoked.idx, 1);
      const good = await walletWithPid({ status: valid });
      expect((await runRedirectFlow(env, good.wallet, haipPid)).status).toBe('authorized');
      const bad = await walletWithPid({ status: revoked });
      const flow = await runRedirectFlow(env, bad.wallet, haipPid);
      expect(flow.status).toBe('rejected');
      expect(failedCodes(flow.policies)).toContain('status.revoked');
    } finally {
      await statusServer.close();
    }
  });
});
