// A store that fails after a wallet response was claimed must not lose a valid presentation while
// inviting a retry: either the retry succeeds (the claim was released) or no retry is invited.
import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreUnavailableError, memoryStore, type AuthorizationRecord, type MemoryStore } from '@vp-authorizer/core';
import { manualClock } from './__fixtures__/manual-clock.js';
import { createDcqlAuthorization, encryptResponse, fetchRequestObject, makeSdJwt, startAuthorizer } from './__fixtures__/test-authorizer.js';

let env: Awaited<ReturnType<typeof startAuthorizer>>;
afterEach(() => env?.close());

const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
const readStatus = async (id: string) => (await (await env.api(`/openid4/vp/v1_0/authorizations/${id}/status`)).json()) as { status: string; processing?: boolean };

const isClaim = (next: AuthorizationRecord) => next.status === 'pending' && next.responseClaimedAt !== undefined;
// The decision's write (not the later mark of its code's resolve, which leaves the status as it is).
const isTerminalWrite = (next: AuthorizationRecord) => next.status !== 'pending' && next.status !== 'created' && next.responseCodeResolved === undefined;

type CasFault = (next: AuthorizationRecord, apply: () => Promise<boolean>) => Promise<boolean> | undefined;

/** A memory store whose compareAndSet can be made to fail (or to apply and then report a timeout). */
function faultyStore(clock: { now(): number }): { store: MemoryStore; onCompareAndSet(fault: CasFault): void; puts: () => number } {
  const store = memoryStore({ sweepIntervalMs: 0, clock });
  const cas = store.compareAndSet.bind(store);
  const put = store.put.bind(store);
  let fault: CasFault | undefined;
  let puts = 0;
  store.compareAndSet = (next, expected) => fault?.(next, () => cas(next, expected)) ?? cas(next, expected);
  store.put = (key, value, ttl) => {
    puts++;
    return put(key, value, ttl);
  };
  return { store, onCompareAndSet: (f) => (fault = f), puts: () => puts };
}

/** The store goes down right after the first claim landed, until `up()`. */
function downAfterFirstClaim(faulty: ReturnType<typeof faultyStore>): { up(): void } {
  let down = false;
  let claims = 0;
  faulty.onCompareAndSet((next, apply) => {
    if (down) return Promise.reject(new StoreUnavailableError());
    if (isClaim(next) && claims++ === 0) return apply().then((ok) => ((down = true), ok));
    return undefined;
  });
  return { up: () => (down = false) };
}

async function prepareResponse() {
  const { json } = await createDcqlAuthorization(env.api);
  const ro = await fetchRequestObject(json.authorizeUrl!);
  const claims = decodeJwt(ro.jwt) as Record<string, string>;
  const response = await encryptResponse(ro.jwt, { vp_token: { pid: [await makeSdJwt()] }, state: claims.state });
  const post = () => fetch(claims.response_uri!, form({ response }));
  const base = env.base;
  const postTo = (on: typeof env) => fetch(claims.response_uri!.replace(base, on.base), form({ response }));
  return { id: json.authorizationId!, post, postTo };
}

async function resolveOn(on: typeof env, redirectUri: string) {
  const code = new URL(redirectUri).searchParams.get('response_code')!;
  const res = await on.api('/openid4/vp/v1_0/response-code/resolve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ response_code: code }) });
  return res.json();
}

async function resolve(redirectUri: string) {
  const code = new URL(redirectUri).searchParams.get('response_code')!;
  const res = await env.api('/openid4/vp/v1_0/response-code/resolve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ response_code: code }) });
  return res.json();
}

describe('the store fails after the claim', () => {
  it('the claim is released: 503 + Retry-After, and the same POST retried is accepted (authorized)', async () => {
    const clock = manualClock();
    const faulty = faultyStore(clock);
    let failures = 0;
    faulty.onCompareAndSet((next) => (isTerminalWrite(next) && failures++ === 0 ? Promise.reject(new StoreUnavailableError('stalled', { retryAfterSeconds: 2 })) : undefined));
    env = await startAuthorizer({ store: faulty.store, clock });
    const { id, post } = await prepareResponse();

    const first = await post();
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('2');
    expect(await first.json()).toMatchObject({ error: 'temporarily_unavailable' });
    expect(await readStatus(id)).toEqual({ status: 'pending' });

    const retry = await post();
    expect(retry.status).toBe(200);
    const { redirect_uri } = (await retry.json()) as { redirect_uri: string };
    expect(redirect_uri).toMatch(/^https:\/\/rp\.example\/callback\?response_code=/);
    expect(await readStatus(id)).toEqual({ status: 'authorized' });
    expect(await resolve(redirect_uri)).toEqual({ authorization_id: id, status: 'authorized' });
  });

  it('storing the response code fails: the claim is released and the retry is accepted', async () => {
    const clock = manualClock();
    const faulty = faultyStore(clock);
    const put = faulty.store.put;
    let failures = 0;
    faulty.store.put = (key, value, ttl) => (failures++ === 0 ? Promise.reject(new StoreUnavailableError()) : put(key, value, ttl));
    env = await startAuthorizer({ store: faulty.store, clock });
    const { id, post } = await prepareResponse();

    const first = await post();
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('1');
    const retry = await post();
    expect(retry.status).toBe(200);
    expect(Object.keys(await retry.json())).toEqual(['redirect_uri']);
    expect((await readStatus(id)).status).toBe('authorized');
  });

  it('the claim cannot be released while the store is down: 503 + Retry-After, and the retry once it is back is accepted', async () => {
    const clock = manualClock();
    const faulty = faultyStore(clock);
    const store = downAfterFirstClaim(faulty);
    env = await startAuthorizer({ store: faulty.store, clock });
    const { id, post } = await prepareResponse();

    const first = await post();
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).not.toBeNull();
    expect(await first.json()).toMatchObject({ error: 'temporarily_unavailable' });

    store.up();
    // The retry reaches the process that still owes the claim back: it is released first, then processed.
    const retry = await post();
    expect(retry.status).toBe(200);
    const { redirect_uri } = (await retry.json()) as { redirect_uri: string };
    expect(await resolve(redirect_uri)).toEqual({ authorization_id: id, status: 'authorized' });
  });

  it('a claim owed back is released in the background once the store answers, so a retry on any process succeeds', async () => {
    const clock = manualClock();
    const faulty = faultyStore(clock);
    const store = downAfterFirstClaim(faulty);
    env = await startAuthorizer({ store: faulty.store, clock });
    const { id, post } = await prepareResponse();

    expect((await post()).status).toBe(503);
    expect(await readStatus(id)).toEqual({ status: 'pending', processing: true });
    store.up();
    // No request needed: the background release runs on its own (bounded wait, real timers).
    for (let i = 0; i < 50 && (await readStatus(id)).processing; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await readStatus(id)).toEqual({ status: 'pending' });
  });

  it('a claim owed back by a process that died is freed by its lease: the retry on another process is decided', async () => {
    const clock = manualClock();
    const faulty = faultyStore(clock);
    const store = downAfterFirstClaim(faulty);
    env = await startAuthorizer({ store: faulty.store, clock, claimLeaseMs: 2_000 });
    const { id, post, postTo } = await prepareResponse();
    expect((await post()).status).toBe(503);
    // The owing process dies: its owed release dies with it.
    await env.close();
    store.up();
    const other = await startAuthorizer({ store: faulty.store, clock, claimLeaseMs: 2_000 });
    env = other;
    const retry = () => postTo(other).then(async (r) => ({ status: r.status, retryAfter: r.headers.get('retry-after'), body: (await r.json()) as { redirect_uri?: string } }));
    // Within the lease the retry is told when to come back…
    const early = await retry();
    expect(early).toMatchObject({ status: 400, retryAfter: '2' });
    // …and after it, the other process decides it.
    clock.advance(2_000);
    const late = await retry();
    expect(late.status).toBe(200);
    expect(await resolveOn(other, late.body.redirect_uri!)).toEqual({ authorization_id: id, status: 'authorized' });
  });

  it('a claim whose release never lands and that nobody retries ends error when the authorization expires', async () => {
    const clock = manualClock();
    const faulty = faultyStore(clock);
    const store = downAfterFirstClaim(faulty);
    env = await startAuthorizer({ store: faulty.store, clock, instance: { config: { openId4vp: { redirectUri: 'https://rp.example/callback' }, policies: { validate: { timeoutMs: 5_000 }, verify: { timeoutMs: 5_000 } } } } });
    const { id } = await prepareResponse().then(async (r) => ((await r.post()).status === 503 ? r : Promise.reject(new Error('expected 503'))));
    await env.close();
    env = await startAuthorizer({ store: faulty.store, clock });
    store.up();
    clock.advance(5_000 + 15_000);
    expect(await readStatus(id), 'the lease ran out: not processing, still open to a retry').toEqual({ status: 'pending' });
    clock.advance(300_000);
    expect(await readStatus(id)).toEqual({ status: 'error' });
    const policy = (await (await env.api(`/openid4/vp/v1_0/authorizations/${id}/policy-response`)).json()) as { data: { error?: { code?: string } }[] };
    expect(policy.data.map((r) => r.error?.code)).toEqual(['authorizer.processing_abandoned']);
  });

  it('a terminal write that timed out but reached the store is answered as the success it was', async () => {
    const clock = manualClock();
    const faulty = faultyStore(clock);
    faulty.onCompareAndSet((next, apply) => (isTerminalWrite(next) ? apply().then(() => Promise.reject(new StoreUnavailableError('timed out'))) : undefined));
    env = await startAuthorizer({ store: faulty.store, clock });
    const { id, post } = await prepareResponse();

    const first = await post();
    expect(first.status).toBe(200);
    const { redirect_uri } = (await first.json()) as { redirect_uri: string };
    expect(await resolve(redirect_uri)).toEqual({ authorization_id: id, status: 'authorized' });
    expect(faulty.puts()).toBe(1);
  });

  it('a claim that timed out but reached the store is undone, so the invited retry is accepted', async () => {
    const clock = manualClock();
    const faulty = faultyStore(clock);
    let failures = 0;
    faulty.onCompareAndSet((next, apply) => (isClaim(next) && failures++ === 0 ? apply().then(() => Promise.reject(new StoreUnavailableError('timed out'))) : undefined));
    env = await startAuthorizer({ store: faulty.store, clock });
    const { id, post } = await prepareResponse();

    const first = await post();
    expect(first.status).toBe(503);
    expect(await readStatus(id)).toEqual({ status: 'pending' });
    const retry = await post();
    expect(retry.status).toBe(200);
    expect((await readStatus(id)).status).toBe('authorized');
  });
});
