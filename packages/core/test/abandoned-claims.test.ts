// A claimed response whose processing never finishes (the process died) leaves its claim to a
// lease that runs out (claim-leases.test.ts: another response takes it over). Nobody resubmitting,
// the authorization ends `error` (abandoned) when it expires, or at the processing deadline when
// that is later; on read and by the sweep.
import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthorizerEvent, PolicyResult } from '@vp-authorizer/core';
import { manualClock } from './__fixtures__/manual-clock.js';
import { createDcqlAuthorization, encryptResponse, fetchRequestObject, makeSdJwt, startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
// Lets a hanging verifier return even when a test failed half-way, so the server can close.
let finishHanging: (() => void) | undefined;
afterEach(async () => {
  finishHanging?.();
  await env?.close();
});

const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
const readStatus = async (id: string) => (await (await env.api(`/openid4/vp/v1_0/authorizations/${id}/status`)).json()) as { status: string; processing?: boolean };
const policyCodes = async (id: string) =>
  ((await (await env.api(`/openid4/vp/v1_0/authorizations/${id}/policy-response`)).json()) as { data: PolicyResult[] }).data.map((r) => r.error?.code);

// Long in real time, so the hanging verifier is never cut short by its (real) timer during the test.
const TIMEOUT_MS = 60_000;
// Policy timeouts plus the 15 s margin: the claim's lifetime.
const CLAIM_LIFETIME_MS = TIMEOUT_MS + 15_000;

/** An authorizer whose verifier hangs (real time stands still) until `finish()`: a processing that never ends on its own. */
async function startWithHangingVerifier(options: { claimLeaseMs?: number } = {}) {
  const clock = manualClock();
  const events: AuthorizerEvent[] = [];
  let entered!: () => void;
  const verifying = new Promise<void>((r) => (entered = r));
  let finish!: () => void;
  const finished = new Promise<void>((r) => (finish = r));
  finishHanging = finish;
  env = await startAuthorizer({
    ...options,
    clock,
    onEvent: (e) => void events.push(e),
    instance: {
      config: { openId4vp: { redirectUri: 'https://rp.example/callback' }, policies: { validate: { timeoutMs: TIMEOUT_MS }, verify: { timeoutMs: TIMEOUT_MS } } },
      verifier: {
        verify: async (input) => {
          entered();
          await finished;
          return input.presentations.map((p) => ({ path: p.path, policy: 'proof', service: 'verifier' as const, data: {} }));
        },
        verifyIdToken: async () => [],
      },
    },
  });
  const { json } = await createDcqlAuthorization(env.api);
  const ro = await fetchRequestObject(json.authorizeUrl!);
  const claims = decodeJwt(ro.jwt) as Record<string, string>;
  const response = await encryptResponse(ro.jwt, { vp_token: { pid: [await makeSdJwt()] }, state: claims.state });
  return { clock, events, id: json.authorizationId!, verifying, finish, post: () => fetch(claims.response_uri!, form({ response })) };
}

describe('a claim has its own deadline', () => {
  it('while a response is processed the status says processing, and an event tells so', async () => {
    const flow = await startWithHangingVerifier();
    flow.clock.advance(1_000);
    const answer = flow.post();
    await flow.verifying;
    expect(await readStatus(flow.id)).toEqual({ status: 'pending', processing: true });
    expect(flow.events.find((e) => e.type === 'authorization.processing')).toMatchObject({ authorizationId: flow.id, status: 'pending' });
    flow.finish();
    expect((await answer).status).toBe(200);
    expect(await readStatus(flow.id)).toEqual({ status: 'authorized' });
  });

  it('a claim whose holder can no longer renew it is not processing; nobody resubmitting, it ends error at expiresAt (read)', async () => {
    const flow = await startWithHangingVerifier();
    flow.clock.advance(1_000);
    const answer = flow.post();
    await flow.verifying;
    // Past the processing deadline the holder cannot renew its lease: it has run out.
    flow.clock.advance(CLAIM_LIFETIME_MS);
    expect(await readStatus(flow.id)).toEqual({ status: 'pending' });
    flow.clock.advance(300_000 - 1_000 - CLAIM_LIFETIME_MS - 1);
    expect(await readStatus(flow.id)).toEqual({ status: 'pending' });
    flow.clock.advance(1);
    expect(await readStatus(flow.id)).toEqual({ status: 'error' });
    expect(await policyCodes(flow.id)).toEqual(['authorizer.processing_abandoned']);
    expect(flow.events.filter((e) => e.type === 'authorization.error')).toMatchObject([{ previousStatus: 'pending' }]);

    // The processing that outlived its claim hands out no response code and invites no retry.
    flow.finish();
    const late = await answer;
    expect(late.status).toBe(500);
    expect(late.headers.get('retry-after')).toBeNull();
    expect(await late.json()).toMatchObject({ error: 'server_error' });
    expect(await readStatus(flow.id)).toEqual({ status: 'error' });
  });

  it('the sweep ends an abandoned claim at expiresAt, not when its lease runs out', async () => {
    const flow = await startWithHangingVerifier();
    flow.clock.advance(1_000);
    const answer = flow.post();
    await flow.verifying;
    flow.clock.advance(300_000 - 1_000 - 1);
    expect(await env.authorizer.sweepExpired()).toBe(0);
    flow.clock.advance(1);
    expect(await env.authorizer.sweepExpired()).toBe(1);
    expect(flow.events.filter((e) => e.type === 'authorization.error')).toHaveLength(1);
    expect(await readStatus(flow.id)).toEqual({ status: 'error' });
    flow.finish();
    await answer;
  });

  it('a claim made just before expiresAt still gets its full processing time, then ends error rather than expired', async () => {
    const flow = await startWithHangingVerifier({ claimLeaseMs: 300 });
    flow.clock.advance(300_000 - 1);
    const answer = flow.post();
    await flow.verifying;
    flow.clock.advance(CLAIM_LIFETIME_MS - 1);
    expect(await env.authorizer.sweepExpired()).toBe(0);
    // The holder renews its lease up to the processing deadline (its renewals run every 100 ms).
    let status = await readStatus(flow.id);
    for (let i = 0; i < 40 && !status.processing; i++) status = await new Promise((r) => setTimeout(r, 50)).then(() => readStatus(flow.id));
    expect(status).toEqual({ status: 'pending', processing: true });
    flow.clock.advance(1);
    expect(await readStatus(flow.id)).toEqual({ status: 'error' });
    flow.finish();
    await answer;
  });
});
