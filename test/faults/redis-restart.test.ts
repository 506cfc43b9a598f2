/**
 * Redis killed (SIGKILL) and restarted mid-run, under an authorizer on redisStore: while it is down
 * every route answers 503 + Retry-After in bounded time (never 500, never hangs); afterwards the
 * service resumes by itself; a wallet response is accepted at most once and a response code
 * consumed at most once across the restart; nothing stays non-terminal past its deadline.
 * The suite runs its own redis-server processes (not the shared REDIS_URL one).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { httpVerifierClient, type AuthorizerOptions } from '@vp-authorizer/core';
import { redisStore, type RedisStore } from '@vp-authorizer/redis';
import { startPassThroughAuthorizer } from '@vp-authorizer/testing';
import { startFaultService, type FaultService } from './__fixtures__/fault-service.js';
import { activeHandleCounts, leakedHandles, pollUntil, postWalletResponse, prepareWalletResponse, readPolicyResponse, readStatus, responseCodeOf, type Api, type WalletAnswer } from './__fixtures__/flow.js';
import { redisAvailable, startRedis, type RedisProcess } from './__fixtures__/redis-process.js';
import { startReplyCuttingProxy } from './__fixtures__/reply-cutting-proxy.js';

const COMMAND_TIMEOUT_MS = 500;
/** Every answer during an outage must come within this (several store calls, each bounded by COMMAND_TIMEOUT_MS). */
const OUTAGE_ANSWER_BOUND_MS = 6 * COMMAND_TIMEOUT_MS + 2_000;
const POLICY_TIMEOUT_MS = 1_500;
/** Authorization lifetime for the expiry test (the minimum the config accepts); the others use a longer one so load cannot expire them mid-test. */
const SHORT_EXPIRES_AFTER_MS = 1_000;
const DEFAULT_EXPIRES_AFTER_MS = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!redisAvailable())('Redis killed and restarted under a running authorizer', () => {
  const baseline = activeHandleCounts();
  let redis: RedisProcess;
  let verifierService: FaultService;
  let faultsInjected = 0;
  let redisKillsTotal = 0;
  let restartsTotal = 0;
  const cleanups: (() => Promise<void>)[] = [];
  /** Every wallet answer given while Redis was down or restarting (for the never-500 check). */
  const outageWalletAnswers: { scenario: string; status: number; body: unknown }[] = [];

  /** Listener leaks across reconnects would show up as MaxListenersExceededWarning. */
  const warnings: string[] = [];
  const onWarning = (warning: Error) => void warnings.push(`${warning.name}: ${warning.message}`);

  beforeAll(async () => {
    process.on('warning', onWarning);
    redis = await startRedis({ persistent: true });
    verifierService = await startFaultService('verifier');
  });

  afterEach(async () => {
    // A test that failed half-way must not leave Redis down for the next one.
    if (!redis.running) await redis.start();
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  afterAll(async () => {
    restartsTotal += redis?.restarts ?? 0;
    redisKillsTotal += redis?.kills ?? 0;
    await redis?.dispose();
    await verifierService?.close();
    const leaked = await leakedHandles(baseline);
    process.off('warning', onWarning);
    console.log(
      `[faults] redis suite: faults injected ${faultsInjected}, Redis restarts survived ${restartsTotal}, redis-server processes killed ${redisKillsTotal}; handles above baseline after close: ${JSON.stringify(leaked)}`,
    );
    expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning')), 'no listener leak across reconnects').toEqual([]);
    expect(leaked, 'sockets, servers, child processes or timers left open by the Redis suite').toEqual({});
  });

  /** An authorizer on its own key prefix, with a clock the test can move forward (a claim deadline is the slowest policy timeout, 10 s by default for validate, plus 15 s). */
  async function authorizerOnRedis(
    redisUrl = redis.url,
    { expiresAfter = DEFAULT_EXPIRES_AFTER_MS, verifyTimeoutMs = POLICY_TIMEOUT_MS, ...extra }: Partial<AuthorizerOptions> & { expiresAfter?: number; verifyTimeoutMs?: number } = {},
  ) {
    const store: RedisStore = redisStore({ url: redisUrl, keyPrefix: `vpa-faults:${Math.random().toString(36).slice(2, 10)}:`, commandTimeoutMs: COMMAND_TIMEOUT_MS });
    let offset = 0;
    const env = await startPassThroughAuthorizer({
      store,
      clock: { now: () => Date.now() + offset },
      instance: {
        verifier: httpVerifierClient({ url: verifierService.url, timeoutMs: verifyTimeoutMs - 300, retries: 0 }),
        config: { openId4vp: { redirectUri: 'https://rp.example/callback', expiresAfter }, policies: { verify: { timeoutMs: verifyTimeoutMs } } },
      },
      ...extra,
    });
    cleanups.push(async () => {
      await env.close();
      await store.close();
    });
    return { ...env, store, advance: (ms: number) => (offset += ms) };
  }

  /** Wait (bounded) until the authorizer answers the RP again: no reconnect call, it must resume by itself. */
  async function resumed(api: Api, id: string): Promise<boolean> {
    const ok = await pollUntil(async () => ((await readStatus(api, id)).code === 200 ? true : undefined), { timeoutMs: 15_000, intervalMs: 100 });
    return ok === true;
  }

  /** Call the sweep with an upper bound: it must settle (resolve or reject), never hang. */
  async function boundedSweep(sweep: () => Promise<number>): Promise<{ settled: boolean; value?: number; error?: unknown }> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hang = new Promise<{ settled: false }>((resolve) => (timer = setTimeout(() => resolve({ settled: false }), OUTAGE_ANSWER_BOUND_MS)));
    const run = sweep().then(
      (value) => ({ settled: true, value }),
      (error: unknown) => ({ settled: true, error }),
    );
    const result = await Promise.race([run, hang]);
    clearTimeout(timer);
    return result;
  }

  /** Everything claimed and abandoned ends terminal once its claim deadline has passed (moved there by the clock). */
  async function settleAll(env: Awaited<ReturnType<typeof authorizerOnRedis>>): Promise<void> {
    env.advance(POLICY_TIMEOUT_MS + 15_000 + DEFAULT_EXPIRES_AFTER_MS);
    const swept = await boundedSweep(() => env.authorizer.sweepExpired());
    expect(swept.settled).toBe(true);
    expect(swept.error).toBeUndefined();
  }

  it('while Redis is down, RP and wallet routes answer 503 with Retry-After in bounded time, and service resumes by itself after the restart', async () => {
    const env = await authorizerOnRedis();
    verifierService.setFault({ kind: 'ok' });
    const prepared = await prepareWalletResponse(env.api);
    const createdOnly = (await (await env.api('/openid4/vp/v1_0/authorizations', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt' }] } } }),
    })).json()) as { authorizationId: string };

    await redis.kill();
    faultsInjected++;
    const id = prepared.authorizationId;
    const calls: [string, () => Promise<Response>, 'rp' | 'wallet'][] = [
      ['create', () => env.api('/openid4/vp/v1_0/authorizations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt' }] } } }) }), 'rp'],
      ['status', () => env.api(`/openid4/vp/v1_0/authorizations/${id}/status`), 'rp'],
      ['policy-response', () => env.api(`/openid4/vp/v1_0/authorizations/${id}/policy-response`), 'rp'],
      ['credentials', () => env.api(`/openid4/vp/v1_0/authorizations/${id}/credentials`), 'rp'],
      ['resolve', () => env.api('/openid4/vp/v1_0/response-code/resolve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ response_code: 'A'.repeat(43) }) }), 'rp'],
      ['request object GET', () => fetch(`${env.base}/openid4/vp/v1_0/authorizations/${createdOnly.authorizationId}/jwt`), 'wallet'],
      ['request object POST', () => fetch(`${env.base}/openid4/vp/v1_0/authorizations/${createdOnly.authorizationId}/jwt`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'wallet_nonce=n1' }), 'wallet'],
      ['direct_post.jwt', () => fetch(prepared.responseUri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: prepared.form }), 'wallet'],
    ];
    const seen: Record<string, { status: number; retryAfter: string | null; ms: number; body: unknown }> = {};
    for (const [name, call, audience] of calls) {
      const started = Date.now();
      const res = await call();
      const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
      seen[name] = { status: res.status, retryAfter: res.headers.get('retry-after'), ms: Date.now() - started, body };
      if (audience === 'wallet') outageWalletAnswers.push({ scenario: `outage ${name}`, status: res.status, body });
    }
    for (const [name] of calls) {
      const s = seen[name]!;
      expect(s.status, `${name}: ${JSON.stringify(s.body)}`).toBe(503);
      expect(Number(s.retryAfter), `${name}: Retry-After`).toBeGreaterThan(0);
      expect(s.ms, `${name}: answered in bounded time`).toBeLessThan(OUTAGE_ANSWER_BOUND_MS);
    }
    const sweepWhileDown = await boundedSweep(() => env.authorizer.sweepExpired());
    expect(sweepWhileDown.settled, 'sweepExpired() settles while Redis is down').toBe(true);

    await redis.start();
    expect(await resumed(env.api, id), 'the RP is served again after the restart, without any reconnect call').toBe(true);
    expect((await readStatus(env.api, id)).body.status).toBe('pending');
    // The 503 during the outage changed nothing: the wallet's retry is processed now.
    const retry = await postWalletResponse(prepared);
    expect(retry.status).toBe(200);
    expect(responseCodeOf(retry)).toBeTruthy();
    expect((await readStatus(env.api, id)).body.status).toBe('authorized');
  });

  it('Redis killed while a wallet response is being processed: the wallet gets 503 with Retry-After (not 500), and the authorization reaches a definite state', async () => {
    const env = await authorizerOnRedis(redis.url, { verifyTimeoutMs: 10_000 });
    verifierService.setFault({ kind: 'held' });
    const prepared = await prepareWalletResponse(env.api);
    const posting = postWalletResponse(prepared);
    // The claim is written at once; the verifier holds the processing until Redis is dead.
    const claimed = await pollUntil(async () => (verifierService.inFlight() > 0 ? true : undefined), { timeoutMs: 5_000, intervalMs: 10 });
    expect(claimed, 'the response was claimed and the verify call is held').toBe(true);
    await redis.kill();
    faultsInjected++;
    expect(verifierService.release()).toBe(1);
    const answer = await posting;
    outageWalletAnswers.push({ scenario: 'killed mid-processing', status: answer.status, body: answer.body });
    verifierService.setFault({ kind: 'ok' });
    await redis.start();
    expect(await resumed(env.api, prepared.authorizationId)).toBe(true);

    // The retry the wallet was invited to make (or a stray one) never yields a second decision.
    const retry = await postWalletResponse(prepared);
    const before = (await readStatus(env.api, prepared.authorizationId)).body.status;
    await settleAll(env);
    const after = await readStatus(env.api, prepared.authorizationId);
    const policy = await readPolicyResponse(env.api, prepared.authorizationId);
    console.log(`[faults] killed mid-processing: wallet ${answer.status} ${JSON.stringify(answer.body)}, retry ${retry.status}, status before settle ${String(before)}, after ${String(after.body.status)}`);

    expect(['authorized', 'error']).toContain(after.body.status);
    if (after.body.status === 'error') expect(policy.data.some((r) => r.error !== undefined), 'an error carries a reason').toBe(true);
    // Accepted at most once: at most one 200 among the first answer and the retry.
    expect([answer.status, retry.status].filter((s) => s === 200).length).toBeLessThanOrEqual(1);
    // What the wallet was told while the store was gone: 503 + Retry-After, never a 500.
    expect(answer.status, JSON.stringify(answer.body)).toBe(503);
    expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    // Told to retry, the retry must be able to succeed.
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
  });

  it('Redis killed and back while a wallet response is being processed (reconnected before the verifier answers): the response completes, accepted once', async () => {
    // A verify deadline long enough for a restart and the client's own reconnect, however loaded the machine.
    const env = await authorizerOnRedis(redis.url, { verifyTimeoutMs: 10_000 });
    verifierService.setFault({ kind: 'held' });
    const prepared = await prepareWalletResponse(env.api);
    const posting = postWalletResponse(prepared);
    const claimed = await pollUntil(async () => (verifierService.inFlight() > 0 ? true : undefined), { timeoutMs: 5_000, intervalMs: 10 });
    expect(claimed, 'the response was claimed and the verify call is held').toBe(true);
    await redis.kill();
    faultsInjected++;
    await redis.start();
    // The store is usable again (it reconnected by itself) before the verifier answers.
    expect(await resumed(env.api, prepared.authorizationId)).toBe(true);
    expect(verifierService.release()).toBe(1);
    const answer = await posting;
    outageWalletAnswers.push({ scenario: 'killed and back mid-processing', status: answer.status, body: answer.body });
    verifierService.setFault({ kind: 'ok' });
    console.log(`[faults] killed and back mid-processing: wallet ${answer.status} ${JSON.stringify(answer.body)}`);
    const policy = await readPolicyResponse(env.api, prepared.authorizationId);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(responseCodeOf(answer)).toBeTruthy();
    expect((await readStatus(env.api, prepared.authorizationId)).body.status, JSON.stringify(policy.data)).toBe('authorized');
  });

  for (const killAt of [0, 40]) {
    it(`the same wallet response posted concurrently across a kill (at +${killAt} ms) and restart is accepted at most once, with at most one response code`, async () => {
      const env = await authorizerOnRedis();
      verifierService.setFault({ kind: 'slow-ok', delayMs: 30 });
      const prepared = await prepareWalletResponse(env.api);
      const answers: (WalletAnswer | { status: number; body: Record<string, unknown> })[] = [];
      const posts: Promise<void>[] = [];
      const start = Date.now();
      const chaos = (async () => {
        await sleep(killAt);
        await redis.kill();
        faultsInjected++;
        await sleep(400);
        await redis.start();
      })();
      // 40 copies, one every 25 ms: before, during and after the outage.
      for (let i = 0; i < 40; i++) {
        posts.push(
          postWalletResponse(prepared, { timeoutMs: 15_000 }).then(
            (a) => void answers.push(a),
            (e: unknown) => void answers.push({ status: -1, body: { thrown: String(e) } }),
          ),
        );
        await sleep(25);
      }
      await chaos;
      await Promise.all(posts);
      // Until one answer is accepted or refused as already answered, keep retrying (bounded), as a wallet would on 503.
      for (let i = 0; i < 40 && !answers.some((a) => a.status === 200 || a.status === 400) && Date.now() - start < 20_000; i++) {
        answers.push(await postWalletResponse(prepared));
        await sleep(100);
      }
      for (const a of answers) if (a.status >= 500 || a.status < 0) outageWalletAnswers.push({ scenario: `concurrent posts, kill at +${killAt} ms`, status: a.status, body: a.body });

      const accepted = answers.filter((a) => a.status === 200);
      const codes = new Set(accepted.map((a) => responseCodeOf(a as WalletAnswer)).filter(Boolean));
      const statusCounts = answers.reduce<Record<number, number>>((acc, a) => ({ ...acc, [a.status]: (acc[a.status] ?? 0) + 1 }), {});
      console.log(`[faults] concurrent posts, kill at +${killAt} ms: ${JSON.stringify(statusCounts)}`);
      expect(accepted.length, JSON.stringify(statusCounts)).toBeLessThanOrEqual(1);
      expect(codes.size).toBeLessThanOrEqual(1);
      expect(answers.every((a) => [200, 400, 500, 503].includes(a.status)), JSON.stringify(statusCounts)).toBe(true);

      // Whatever was left claimed ends at its deadline; the one code handed out resolves exactly once.
      await settleAll(env);
      const final = await readStatus(env.api, prepared.authorizationId);
      expect(['authorized', 'error']).toContain(final.body.status);
      if (accepted.length === 1) {
        expect(final.body.status, 'the accepted answer is the stored decision').toBe('authorized');
        const code = [...codes][0]!;
        const resolve = () => env.api('/openid4/vp/v1_0/response-code/resolve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ response_code: code }) });
        const results = await Promise.all([resolve(), resolve(), resolve()]);
        expect(results.map((r) => r.status).sort()).toEqual([200, 404, 404]);
      }
    });
  }

  it('a response code resolved concurrently across a kill and restart is consumed at most once', async () => {
    const env = await authorizerOnRedis();
    verifierService.setFault({ kind: 'ok' });
    const prepared = await prepareWalletResponse(env.api);
    const accepted = await postWalletResponse(prepared);
    expect(accepted.status).toBe(200);
    const code = responseCodeOf(accepted)!;
    const t0 = Date.now();
    const resolve = async (): Promise<{ status: number; body: unknown; sentAt: number; ms: number }> => {
      const sentAt = Date.now() - t0;
      const res = await env.api('/openid4/vp/v1_0/response-code/resolve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ response_code: code }), signal: AbortSignal.timeout(15_000) });
      return { status: res.status, body: await res.json().catch(() => null), sentAt, ms: Date.now() - t0 - sentAt };
    };
    const results: { status: number; body: unknown; sentAt: number; ms: number }[] = [];
    let killedAt = -1;
    const calls: Promise<void>[] = [];
    const chaos = (async () => {
      await sleep(20);
      killedAt = Date.now() - t0;
      await redis.kill();
      faultsInjected++;
      await sleep(300);
      await redis.start();
    })();
    for (let i = 0; i < 30; i++) {
      calls.push(resolve().then((r) => void results.push(r)));
      await sleep(20);
    }
    await chaos;
    await Promise.all(calls);
    expect(await resumed(env.api, prepared.authorizationId)).toBe(true);
    results.push(await resolve());
    const counts = results.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {});
    console.log(`[faults] concurrent resolves across a restart (kill sent at +${killedAt} ms): ${JSON.stringify(counts)}; first sent: ${JSON.stringify([...results].sort((a, b) => a.sentAt - b.sentAt).slice(0, 2).map((r) => ({ sentAtMs: r.sentAt, tookMs: r.ms, status: r.status })))}`);
    expect(results.filter((r) => r.status === 200).length, JSON.stringify(counts)).toBeLessThanOrEqual(1);
    expect(results.every((r) => [200, 404, 503].includes(r.status)), JSON.stringify(counts)).toBe(true);
    // A code handed out before the restart is gone after it. When every earlier answer was 503 (the
    // kill landed before the consume ran, or before its reply left), the code was handed to no one:
    // it still resolves, or it is gone if Redis had committed the consume before dying. Either way
    // it is handed out at most once, which the count of 200s above holds across all answers.
    const handedOutBefore = results.slice(0, -1).some((r) => r.status === 200);
    expect(handedOutBefore ? [404] : [200, 404], `after the restart (${JSON.stringify(counts)})`).toContain(results.at(-1)!.status);
  });

  it('authorizations whose expiry passes while Redis is down are expired by the sweep after the restart, and a late wallet gets a 4xx', async () => {
    const env = await authorizerOnRedis(redis.url, { expiresAfter: SHORT_EXPIRES_AFTER_MS });
    verifierService.setFault({ kind: 'ok' });
    const pending = await prepareWalletResponse(env.api);
    const created = (await (await env.api('/openid4/vp/v1_0/authorizations', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt' }] } } }),
    })).json()) as { authorizationId: string };

    await redis.kill();
    faultsInjected++;
    env.advance(SHORT_EXPIRES_AFTER_MS + 500);
    const whileDown = await boundedSweep(() => env.authorizer.sweepExpired());
    expect(whileDown.settled, 'the sweep settles while Redis is down').toBe(true);
    await redis.start();
    expect(await resumed(env.api, created.authorizationId)).toBe(true);
    await boundedSweep(() => env.authorizer.sweepExpired());

    for (const id of [pending.authorizationId, created.authorizationId]) {
      expect((await readStatus(env.api, id)).body.status, id).toBe('expired');
    }
    const late = await postWalletResponse(pending);
    expect(late.status).toBeGreaterThanOrEqual(400);
    expect(late.status).toBeLessThan(500);
  });

  it('a response code whose consume ran in Redis but whose reply was lost is never resolved twice (at most once: 503, then 404)', async () => {
    const proxy = await startReplyCuttingProxy(redis.port);
    cleanups.push(() => proxy.close());
    const env = await authorizerOnRedis(proxy.url);
    verifierService.setFault({ kind: 'ok' });
    const prepared = await prepareWalletResponse(env.api);
    const accepted = await postWalletResponse(prepared);
    expect(accepted.status).toBe(200);
    const code = responseCodeOf(accepted)!;
    const resolve = async () => {
      const res = await env.api('/openid4/vp/v1_0/response-code/resolve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ response_code: code }), signal: AbortSignal.timeout(10_000) });
      return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json().catch(() => null)) as unknown };
    };
    proxy.armFor('getdel');
    faultsInjected++;
    const first = await resolve();
    expect(proxy.cuts, 'the consume was sent to Redis and its reply cut').toBe(1);
    expect(await resumed(env.api, prepared.authorizationId)).toBe(true);
    const retry = await resolve();
    const again = await resolve();
    console.log(`[faults] consume reply lost: first ${first.status}, retry ${retry.status}, again ${again.status}`);
    // Never consumed twice.
    expect([first, retry, again].filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
    expect(again.status).toBe(404);
    // An atomic read-and-delete whose reply is lost cannot be told apart from one that never ran:
    // the library keeps "at most once" (docs/security.md) — the RP gets 503, and its retry 404.
    expect(first.status).toBe(503);
    expect(retry.status).toBe(404);
  });

  it('a wallet response whose claim ran in Redis but whose reply was lost: the wallet is told 503 and its retry is processed', async () => {
    const proxy = await startReplyCuttingProxy(redis.port);
    cleanups.push(() => proxy.close());
    const env = await authorizerOnRedis(proxy.url);
    verifierService.setFault({ kind: 'ok' });
    // Fetching the request object ran the compare-and-set script once, so the claim's EVALSHA runs (no NOSCRIPT).
    const prepared = await prepareWalletResponse(env.api);
    proxy.armFor('evalsha');
    faultsInjected++;
    const first = await postWalletResponse(prepared);
    expect(proxy.cuts, 'the claim was sent to Redis and its reply cut').toBe(1);
    outageWalletAnswers.push({ scenario: 'claim reply lost', status: first.status, body: first.body });
    expect(await resumed(env.api, prepared.authorizationId)).toBe(true);
    const retry = await postWalletResponse(prepared);
    const statusAfterRetry = (await readStatus(env.api, prepared.authorizationId)).body;
    await settleAll(env);
    const final = (await readStatus(env.api, prepared.authorizationId)).body;
    console.log(`[faults] claim reply lost: wallet ${first.status} ${JSON.stringify(first.body)}, retry ${retry.status} ${JSON.stringify(retry.body)}, status then ${JSON.stringify(statusAfterRetry)}, finally ${JSON.stringify(final)}`);
    expect([first.status, retry.status].filter((s) => s === 200).length).toBeLessThanOrEqual(1);
    expect(['authorized', 'error']).toContain(final.status);
    expect(first.status).toBe(503);
    expect(retry.status, `a 503 told the wallet to retry, the retry got ${retry.status} ${JSON.stringify(retry.body)}`).toBe(200);
    expect(final.status).toBe('authorized');
  });

  /** Cut the reply of one Redis write of the wallet response; the wallet ends accepted exactly once, and its code resolves. */
  async function replyLostScenario(scenario: string, arm: (proxy: Awaited<ReturnType<typeof startReplyCuttingProxy>>) => void, cutWhat: string): Promise<void> {
    const proxy = await startReplyCuttingProxy(redis.port);
    cleanups.push(() => proxy.close());
    const env = await authorizerOnRedis(proxy.url);
    verifierService.setFault({ kind: 'ok' });
    const prepared = await prepareWalletResponse(env.api);
    arm(proxy);
    faultsInjected++;
    const first = await postWalletResponse(prepared);
    expect(proxy.cuts, `${cutWhat} was sent to Redis and its reply cut`).toBe(1);
    outageWalletAnswers.push({ scenario, status: first.status, body: first.body });
    expect(await resumed(env.api, prepared.authorizationId)).toBe(true);
    const retry = first.status === 200 ? undefined : await postWalletResponse(prepared);
    console.log(`[faults] ${scenario}: wallet ${first.status} ${JSON.stringify(first.body)}, retry ${retry ? `${retry.status} ${JSON.stringify(retry.body)}` : '-'}`);
    const accepted = [first, retry].filter((a): a is WalletAnswer => a?.status === 200);
    expect(accepted.length, 'accepted exactly once').toBe(1);
    expect((await readStatus(env.api, prepared.authorizationId)).body.status).toBe('authorized');
    const code = responseCodeOf(accepted[0]!)!;
    const resolved = await env.api('/openid4/vp/v1_0/response-code/resolve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ response_code: code }) });
    expect(resolved.status, 'the code the wallet was given resolves').toBe(200);
  }

  it('a wallet response whose terminal write ran in Redis but whose reply was lost: the wallet gets its answer (200 now, or 503 and a retry that succeeds), decided once', async () => {
    // The claim is the first compare-and-set of the response; the terminal write is the second.
    await replyLostScenario('terminal write reply lost', (proxy) => proxy.armFor('evalsha', 1), 'the terminal write');
  });

  it('a wallet response whose response-code write ran in Redis but whose reply was lost: decided once, and the code the wallet finally holds resolves', async () => {
    await replyLostScenario('code write reply lost', (proxy) => proxy.armFor('set'), 'the code write');
  });

  it('a wallet response whose claim reply stalls past the store timeout: the wallet is told 503 and its retry after the stall is processed', async () => {
    const proxy = await startReplyCuttingProxy(redis.port);
    cleanups.push(() => proxy.close());
    const env = await authorizerOnRedis(proxy.url);
    verifierService.setFault({ kind: 'ok' });
    const prepared = await prepareWalletResponse(env.api);
    // The claim runs in Redis at once; its reply (and every later one on that connection) arrives after 3 store timeouts.
    proxy.stallAfter('evalsha', 3 * COMMAND_TIMEOUT_MS);
    faultsInjected++;
    const first = await postWalletResponse(prepared);
    expect(proxy.cuts, 'the claim was sent to Redis and its reply stalled').toBe(1);
    outageWalletAnswers.push({ scenario: 'claim reply stalled', status: first.status, body: first.body });
    expect(first.ms, 'answered within the store timeouts, not after the stall').toBeLessThan(OUTAGE_ANSWER_BOUND_MS);
    await sleep(3 * COMMAND_TIMEOUT_MS + 200);
    expect(await resumed(env.api, prepared.authorizationId)).toBe(true);
    const statusBeforeRetry = (await readStatus(env.api, prepared.authorizationId)).body;
    const retry = await postWalletResponse(prepared);
    await settleAll(env);
    const final = (await readStatus(env.api, prepared.authorizationId)).body;
    console.log(`[faults] claim reply stalled: wallet ${first.status} after ${first.ms} ms, status then ${JSON.stringify(statusBeforeRetry)}, retry ${retry.status} ${JSON.stringify(retry.body)}, finally ${JSON.stringify(final)}`);
    expect([first.status, retry.status].filter((s) => s === 200).length).toBeLessThanOrEqual(1);
    expect(['authorized', 'error']).toContain(final.status);
    expect(first.status).toBe(503);
    expect(retry.status, `a 503 told the wallet to retry, the retry got ${retry.status} ${JSON.stringify(retry.body)}`).toBe(200);
    expect(final.status).toBe('authorized');
  });

  it('Redis restarted empty (no persistence): the RP and the wallet get 4xx for what was lost, never 5xx, and new authorizations work', async () => {
    const volatile = await startRedis({ persistent: false });
    cleanups.push(async () => {
      restartsTotal += volatile.restarts;
      redisKillsTotal += volatile.kills;
      await volatile.dispose();
    });
    const env = await authorizerOnRedis(volatile.url);
    verifierService.setFault({ kind: 'ok' });
    const prepared = await prepareWalletResponse(env.api);
    await volatile.kill();
    faultsInjected++;
    await volatile.start();
    const lost = await pollUntil(async () => {
      const s = await readStatus(env.api, prepared.authorizationId);
      return s.code === 503 ? undefined : s;
    }, { timeoutMs: 15_000, intervalMs: 100 });
    expect(lost?.code).toBe(404);
    const wallet = await postWalletResponse(prepared);
    expect(wallet.status).toBeGreaterThanOrEqual(400);
    expect(wallet.status).toBeLessThan(500);
    const fresh = await prepareWalletResponse(env.api);
    expect((await postWalletResponse(fresh)).status).toBe(200);
  });

  it('wallet answers given during the outages above were never 500', () => {
    const fiveHundreds = outageWalletAnswers.filter((a) => a.status >= 500 && a.status !== 503);
    expect(fiveHundreds, JSON.stringify(fiveHundreds)).toEqual([]);
  });
});
