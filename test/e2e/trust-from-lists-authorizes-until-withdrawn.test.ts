import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSignedList, createListSigner, createTestIssuer, createTestWallet, GRANTED, type ListSigner, type TestIssuer, WITHDRAWN } from '@vp-authorizer/testing';
import { SERVICE_TYPES, trustLists, type TrustLists } from '@vp-authorizer/trust-lists';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eEnvironment, MDL_DOCTYPE, MDL_ELEMENTS, MDL_NS, PID_CLAIMS, PID_VCT, failedCodes, mdlQuery, pidQuery, runRedirectFlow, startE2eEnvironment } from './e2e-harness.js';

const DAY = 86_400_000;

/** The test issuer's root listed as a PID provider and as a QEAA provider (its mDL), with `status`. */
function writeList(path: string, issuer: TestIssuer, signer: ListSigner, sequence: number, status: string) {
  const root = issuer.rootCertificatePem.replace(/-----[^-]+-----|\s/g, '');
  const since = new Date(Date.now() - (status === GRANTED ? 30 * DAY : 1000));
  writeFileSync(
    path,
    buildSignedList(
      {
        sequence,
        services: [
          { type: SERVICE_TYPES.pidIssuance, status, since, certificates: [root], provider: 'Test PID provider' },
          { type: SERVICE_TYPES.qeaaIssuance, status, since, certificates: [root], provider: 'Test mDL issuer' },
        ],
      },
      signer,
    ),
  );
}

let env: E2eEnvironment;
let lists: TrustLists;
let issuer: TestIssuer;
let signer: ListSigner;
let listPath: string;
beforeAll(async () => {
  issuer = await createTestIssuer();
  signer = await createListSigner('Test scheme operator');
  listPath = join(mkdtempSync(join(tmpdir(), 'trust-e2e-')), 'ut-tl.xml');
  writeList(listPath, issuer, signer, 1, GRANTED);
  // Refreshed every ~50 ms so the test sees the withdrawal quickly.
  lists = trustLists({ sources: [`tl:${listPath}`], signers: [signer.pem], refresh: { minIntervalMs: 10, maxIntervalMs: 50, retryMs: 10 } });
  await lists.ready();
  env = await startE2eEnvironment({ issuer, trustAnchors: [], issuerAnchors: lists });
});
afterAll(async () => {
  lists.close();
  await env.close();
});

const body = (dcql: Record<string, unknown>) => ({ responseMode: 'direct_post.jwt', profile: 'haip', query: { type: 'DCQL', dcql } });

describe('issuer trust taken only from a trusted list', () => {
  it('authorizes a PID SD-JWT and an mDL whose issuer root the list grants, and evaluates trusted_authorities etsi_tl', async () => {
    const wallet = await createTestWallet();
    await wallet.addSdJwtVc(env.issuer, { vct: PID_VCT, claims: PID_CLAIMS });
    await wallet.addMdoc(env.issuer, { docType: MDL_DOCTYPE, namespaces: { [MDL_NS]: MDL_ELEMENTS } });
    const flow = await runRedirectFlow(env, wallet, body({ credentials: [pidQuery(), mdlQuery()] }));
    expect(failedCodes(flow.policies)).toEqual([]);
    expect(flow.status).toBe('authorized');

    const named = await runRedirectFlow(env, wallet, body({ credentials: [{ ...pidQuery(), trusted_authorities: [{ type: 'etsi_tl', values: [listPath] }] }] }));
    expect(named.status).toBe('authorized');
    const other = await runRedirectFlow(env, wallet, body({ credentials: [{ ...pidQuery(), trusted_authorities: [{ type: 'etsi_tl', values: ['https://tl.example/other.xml'] }] }] }));
    expect(failedCodes(other.policies)).toContain('trusted_authorities.no_match');
    expect(other.status).toBe('rejected');
  });

  it('refuses both once the list withdraws the services', async () => {
    writeList(listPath, issuer, signer, 2, WITHDRAWN);
    for (let i = 0; i < 300 && lists.status()[0]?.sequence !== 2; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lists.status()[0]?.sequence).toBe(2);
    const wallet = await createTestWallet();
    await wallet.addSdJwtVc(env.issuer, { vct: PID_VCT, claims: PID_CLAIMS });
    await wallet.addMdoc(env.issuer, { docType: MDL_DOCTYPE, namespaces: { [MDL_NS]: MDL_ELEMENTS } });
    const flow = await runRedirectFlow(env, wallet, body({ credentials: [pidQuery(), mdlQuery()] }));
    expect(flow.status).toBe('rejected');
    const codes = failedCodes(flow.policies);
    expect(codes.filter((c) => c === 'trusted_issuer.withdrawn').length).toBeGreaterThanOrEqual(2);
    expect(codes).not.toContain('trusted_issuer.untrusted');
  });
});
