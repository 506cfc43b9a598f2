import { createTestWallet } from '@vp-authorizer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eEnvironment, PID_CLAIMS, PID_VCT, pidQuery, responseCodeOf, startE2eEnvironment } from './e2e-harness.js';

let env: E2eEnvironment;
beforeAll(async () => {
  env = await startE2eEnvironment();
});
afterAll(async () => env.close());

describe('replayed wallet response', () => {
  it('the same encrypted body sent twice: the second is refused with 400, the first result stands', async () => {
    const wallet = await createTestWallet();
    await wallet.addSdJwtVc(env.issuer, { vct: PID_VCT, claims: PID_CLAIMS });
    const created = await env.rp.create({ responseMode: 'direct_post.jwt', profile: 'haip', query: { type: 'DCQL', dcql: { credentials: [pidQuery()] } } });
    const request = await wallet.receive(created.authorizeUrl as string);
    const first = await wallet.respond(request);
    expect(first.status).toBe(200);
    const policiesBefore = await env.rp.policyResponse(created.authorizationId);
    const credentialsBefore = await env.rp.credentials(created.authorizationId);

    const replay = await wallet.submit(first.prepared);
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({ error: expect.any(String) });

    expect(await env.rp.status(created.authorizationId)).toBe('authorized');
    expect(await env.rp.policyResponse(created.authorizationId)).toEqual(policiesBefore);
    expect(await env.rp.credentials(created.authorizationId)).toEqual(credentialsBefore);
    expect((await env.rp.resolve(responseCodeOf(first.body))).body).toMatchObject({ status: 'authorized' });
  });

  it('a second, freshly built response to an answered request is refused too', async () => {
    const wallet = await createTestWallet();
    await wallet.addSdJwtVc(env.issuer, { vct: PID_VCT, claims: PID_CLAIMS });
    const created = await env.rp.create({ responseMode: 'direct_post.jwt', profile: 'haip', query: { type: 'DCQL', dcql: { credentials: [pidQuery()] } } });
    const request = await wallet.receive(created.authorizeUrl as string);
    expect((await wallet.respond(request)).status).toBe(200);
    expect((await wallet.respond(request)).status).toBe(400);
    expect(await env.rp.status(created.authorizationId)).toBe('authorized');
  });
});

describe('expired authorization', () => {
  it('a response after expiresAt is refused and the status is expired', async () => {
    const wallet = await createTestWallet();
    await wallet.addSdJwtVc(env.issuer, { vct: PID_VCT, claims: PID_CLAIMS });
    const created = await env.rp.create({ responseMode: 'direct_post.jwt', profile: 'haip', query: { type: 'DCQL', dcql: { credentials: [pidQuery()] } } });
    const request = await wallet.receive(created.authorizeUrl as string);
    env.advanceClock(Date.parse(created.expiresAt as string) - Date.now() + 60_000);
    const late = await wallet.respond(request);
    expect(late.status).toBeGreaterThanOrEqual(400);
    expect(late.status).toBeLessThan(500);
    expect(await env.rp.status(created.authorizationId)).toBe('expired');
  });
});
