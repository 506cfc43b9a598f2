// A claim on a wallet response is a lease: renewed while the verifier works, taken over by a
// response that arrives once it has run out, and the old holder's late commit is refused. Two
// authorizers share one memory store here (as two processes share Redis); the old holder is cut
// off from the store for its renewals (a partition or a paused process looks the same to the store).
import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreUnavailableError, memoryStore, type AuthorizationRecord, type AuthorizerEvent, type MemoryStore, type PolicyResult } from '@vp-authorizer/core';
import { manualClock } from './__fixtures__/manual-clock.js';
import { createDcqlAuthorization, encryptResponse, fetchRequestObject, makeSdJwt, startAuthorizer } from './__fixtures__/test-authorizer.js';

type Env = Awaited<ReturnType<typeof startAuthorizer>>;
const envs: Env[] = [];
let finishHanging: (() => void) | undefined;
afterEach(async () => {
  finishHanging?.();
  for (const env of envs.splice(0)) await env.close();
});

const LEASE_MS = 300;
const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
const readStatus = async (env: Env, id: string) => (await (await env.api(`/openid4/vp/v1_0/authorizations/${id}/status`)).json()) as { status: string; processing?: boolean };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const isRenewal = (next: AuthorizationRecord) => next.status === 'pending' && next.responseClaimedAt !== undefined && next.version > 3;

/** A verifier that hangs until `finish()`; `entered` resolves once it is called. */
function hangingVerifier() {
  let entered!: () => void;
  const verifying = new Promise<void>((r) => (entered = r));
  let finish!: () => void;
  const finished = new Promise<void>((r) => (finish = r));
  finishHanging = finish;
  return {
    verifying,
    finish,
    verifier: {
      verify: async (input: { presentations: { path: (string | number)[] }[] }) => {
        entered();
        await finished;
        return input.presentations.map((p) => ({ path: p.path, policy: 'proof', service: 'verifier' as const, data: {} }));
      },
      verifyIdToken: async () => [],
    },
  };
}

/** Authorizer A (hanging verifier, its renewals can be cut off) and B (pass-through), on one store and one clock. */
async function twoProcesses() {
  const clock = manualClock();
  const shared = memoryStore({ sweepIntervalMs: 0, clock });
  let partitioned = false;
  // A's view of the store: while partitioned, its lease renewals do not reach the store.
  const compareAndSet: MemoryStore['compareAndSet'] = (next, expected, ttl) =>
    partitioned && isRenewal(next) ? Promise.reject(new StoreUnavailableError()) : shared.compareAndSet(next, expected, ttl);
  const viewOfA = new Proxy(shared, {
    get: (target, name) => (name === 'compareAndSet' ? compareAndSet : typeof target[name as keyof MemoryStore] === 'function' ? (target[name as keyof MemoryStore] as (...args: unknown[]) => unknown).bind(target) : target[name as keyof MemoryStore]),
  });
  const hanging = hangingVerifier();
  const events: AuthorizerEvent[] = [];
  const logged: Record<string, unknown>[] = [];
  const logger = { warn: (fields: Record<string, unknown>) => void logged.push(fields), info: (fields: Record<string, unknown>) => void logged.push(fields) };
  const config = { openId4vp: { redirectUri: 'https://rp.example/callback' }, policies: { validate: { timeoutMs: 60_000 }, verify: { timeoutMs: 60_000 } } };
  const a = await startAuthorizer({ store: viewOfA, clock, claimLeaseMs: LEASE_MS, logger, onEvent: (e) => void events.push(e), instance: { config, verifier: hanging.verifier } });
  const b = await startAuthorizer({ store: shared, clock, claimLeaseMs: LEASE_MS, onEvent: (e) => void events.push(e), instance: { config } });
  envs.push(a, b);
  const { json } = await createDcqlAuthorization(a.api);
  const ro = await fetchRequestObject(json.authorizeUrl!);
  const claims = decodeJwt(ro.jwt) as Record<string, string>;
  const response = await encryptResponse(ro.jwt, { vp_token: { pid: [await makeSdJwt()] }, state: claims.state });
  const postTo = (env: Env) => fetch(claims.response_uri!.replace(a.base, env.base), form({ response }));
  return { clock, shared, a, b, hanging, events, logged, id: json.authorizationId!, postTo, partition: () => (partitioned = true), heal: () => (partitioned = false) };
}

describe('claims are leases', () => {
  it('the holder renews its lease while the verifier works: still processing long after the first lease would have run out', async () => {
    const p = await twoProcesses();
    const answer = p.postTo(p.a);
    await p.hanging.verifying;
    const first = (await p.shared.get('main', p.id))!;
    expect(first.claimHolder).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(first.leaseExpiresAt! - first.responseClaimedAt!).toBe(LEASE_MS);
    for (let step = 0; step < 6; step++) {
      p.clock.advance(LEASE_MS / 2);
      await sleep(LEASE_MS / 2); // two renewal ticks of real time
      expect(await readStatus(p.b, p.id)).toEqual({ status: 'pending', processing: true });
    }
    const renewed = (await p.shared.get('main', p.id))!;
    expect(renewed.claimHolder).toBe(first.claimHolder);
    expect(renewed.leaseExpiresAt).toBeGreaterThanOrEqual(first.responseClaimedAt! + 3 * LEASE_MS);
    // A second response meanwhile: the answer of today (400), plus when to try again.
    const second = await p.postTo(p.b);
    expect(second.status).toBe(400);
    expect(await second.json()).toMatchObject({ error: 'invalid_request' });
    expect(Number(second.headers.get('retry-after'))).toBe(1);
    p.hanging.finish();
    expect((await answer).status).toBe(200);
    expect(await readStatus(p.b, p.id)).toEqual({ status: 'authorized' });
    const decided = (await p.shared.get('main', p.id))!;
    expect(decided.claimHolder, 'nobody holds a decided authorization').toBeUndefined();
    expect(decided.leaseExpiresAt).toBeUndefined();
    // Decided: refused without an invitation to retry.
    const late = await p.postTo(p.b);
    expect(late.status).toBe(400);
    expect(late.headers.get('retry-after')).toBeNull();
  });

  it('once the lease has run out the response is processed afresh by another process, and the old holder\'s late commit is refused and logged', async () => {
    const p = await twoProcesses();
    const fromA = p.postTo(p.a);
    await p.hanging.verifying;
    p.partition();
    const claimedByA = (await p.shared.get('main', p.id))!;
    p.clock.advance(LEASE_MS);
    await sleep(LEASE_MS); // A's renewals fail meanwhile
    expect(await readStatus(p.b, p.id), 'a lease that ran out is not processing').toEqual({ status: 'pending' });

    const fromB = await p.postTo(p.b);
    expect(fromB.status, 'the replayed response is decided by B').toBe(200);
    const { redirect_uri } = (await fromB.json()) as { redirect_uri: string };
    const takenOver = (await p.shared.get('main', p.id))!;
    expect(takenOver.status).toBe('authorized');

    // A wakes up with its outcome: refused, logged, no code handed out, B's decision stands.
    p.heal();
    p.hanging.finish();
    const late = await fromA;
    expect(late.status).toBe(400);
    expect(late.headers.get('retry-after')).toBeNull();
    expect(await late.json()).not.toHaveProperty('redirect_uri');
    expect(p.logged).toContainEqual(expect.objectContaining({ event: 'response.lease_lost', authorizationId: p.id, refusedStatus: 'authorized', storedStatus: 'authorized' }));
    expect((await p.shared.get('main', p.id))!.version).toBe(takenOver.version);
    expect(p.events.filter((e) => e.type === 'authorization.authorized'), 'decided once').toHaveLength(1);
    expect(p.events.filter((e) => e.type === 'authorization.processing').map((e) => e.authorizationId)).toEqual([p.id, p.id]);
    expect(claimedByA.claimHolder).not.toBe(takenOver.claimHolder ?? (await p.shared.get('main', p.id))?.claimHolder);

    const code = new URL(redirect_uri).searchParams.get('response_code')!;
    const resolved = await p.b.api('/openid4/vp/v1_0/response-code/resolve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ response_code: code }) });
    expect(await resolved.json()).toEqual({ authorization_id: p.id, status: 'authorized' });
  });

  it('a lease that ran out after the authorization expired is not taken over; nobody resubmitting ends it error (abandoned) at expiresAt', async () => {
    const p = await twoProcesses();
    const fromA = p.postTo(p.a);
    await p.hanging.verifying;
    p.partition();
    p.clock.advance(LEASE_MS);
    expect(await p.b.authorizer.sweepExpired(), 'a lapsed lease is no reason to end the authorization').toBe(0);
    expect(await readStatus(p.b, p.id)).toEqual({ status: 'pending' });
    p.clock.advance(300_000);
    expect(await p.b.authorizer.sweepExpired()).toBe(1);
    expect(await readStatus(p.b, p.id)).toEqual({ status: 'error' });
    const tooLate = await p.postTo(p.b);
    expect(tooLate.status).toBe(400);
    const policy = (await (await p.b.api(`/openid4/vp/v1_0/authorizations/${p.id}/policy-response`)).json()) as { data: PolicyResult[] };
    expect(policy.data.map((r) => r.error?.code)).toEqual(['authorizer.processing_abandoned']);
    p.heal();
    p.hanging.finish();
    expect((await fromA).status, 'the late holder invites no retry').toBe(500);
    expect(p.logged).toContainEqual(expect.objectContaining({ event: 'response.lease_lost', storedStatus: 'error' }));
  });
});
