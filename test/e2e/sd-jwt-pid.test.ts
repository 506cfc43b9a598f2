import { createTestWallet } from '@vp-authorizer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eEnvironment, PID_CLAIMS, PID_VCT, failedCodes, pidQuery, responseCodeOf, startE2eEnvironment } from './e2e-harness.js';

let env: E2eEnvironment;
beforeAll(async () => {
  env = await startE2eEnvironment();
});
afterAll(async () => env.close());

describe('SD-JWT PID over direct_post.jwt under HAIP', () => {
  it('authorizes, exposes the disclosed claims and resolves the response code once', async () => {
    const wallet = await createTestWallet();
    await wallet.addSdJwtVc(env.issuer, { vct: PID_VCT, claims: PID_CLAIMS });
    const created = await env.rp.create({ responseMode: 'direct_post.jwt', profile: 'haip', query: { type: 'DCQL', dcql: { credentials: [pidQuery()] } } });
    expect(await env.rp.status(created.authorizationId)).toBe('created');

    const request = await wallet.receive(created.authorizeUrl as string, { verifierTrustAnchors: [env.verifierRootPem] });
    expect(request.nonce).toBe(created.nonce);
    const result = await wallet.respond(request);
    expect(result.status).toBe(200);

    expect(await env.rp.status(created.authorizationId)).toBe('authorized');
    const policies = await env.rp.policyResponse(created.authorizationId);
    expect(failedCodes(policies)).toEqual([]);
    const credentials = await env.rp.credentials(created.authorizationId);
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ format: 'dc+sd-jwt', credentialType: PID_VCT, claims: { given_name: 'Erika', family_name: 'Mustermann' } });
    expect(credentials[0]!.claims.birthdate).toBeUndefined();

    const code = responseCodeOf(result.body);
    const resolved = await env.rp.resolve(code);
    expect(resolved).toEqual({ status: 200, body: { authorization_id: created.authorizationId, status: 'authorized' } });
    expect((await env.rp.resolve(code)).status).toBe(404);
  });
});
