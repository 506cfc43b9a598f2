/**
 * Two authorizer server processes share one Redis; the verifier is a slow HTTP service, so wallet
 * responses are in flight (claimed, not decided) when one process is SIGKILLed. Every affected
 * authorization must still reach a definite state: the surviving process ends an abandoned claim
 * `error` with a reason once the claim deadline (policy timeouts + grace) has passed, responses
 * processed by the survivor complete normally, and no response is ever accepted twice.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisStore, type RedisStore } from '@vp-authorizer/redis';
import { TEST_API_KEY, testSigningKey } from '@vp-authorizer/testing';
import { bundleWorker, startWorkers, type BundledWorker, type WorkerProcess } from '../__fixtures__/worker-processes.js';
import { startFaultService, type FaultService } from './__fixtures__/fault-service.js';
import { activeHandleCounts, leakedHandles, pollUntil, postWalletResponse, prepareWalletResponse, readPolicyResponse, readStatus, responseCodeOf, type Api, type PreparedResponse, type WalletAnswer } from './__fixtures__/flow.js';
import { redisAvailable, startRedis, type RedisProcess } from './__fixtures__/redis-process.js';
import type { WorkerCommand, WorkerConfig, WorkerReply } from './__fixtures__/slow-verifier-server-worker.js';

const PUBLIC_ORIGIN = 'https://verifier.example';
const VERIFIER_DELAY_MS = 2_500;
const VERIFY_TIMEOUT_MS = 4_000;
const CLIENT_TIMEOUT_MS = 3_500;
/** The core's margin added to the slowest policy timeout to bound a claim (instance-runtime CLAIM_MARGIN_MS). */
const CLAIM_MARGIN_MS = 15_000;
const ON_A = 4;
const ON_B = 2;

interface ServerProcess {
  origin: string;
  child: ChildProcess;
  process: WorkerProcess<{ origin: string; pid: number }, WorkerCommand, WorkerReply>;
}

describe.skipIf(!redisAvailable())('a server process SIGKILLed while wallet responses are being processed (two processes, one Redis)', () => {
  const baseline = activeHandleCounts();
  let redis: RedisProcess;
  let verifier: FaultService;
  let worker: BundledWorker;
  let a: ServerProcess;
  let b: ServerProcess;
  let observerStore: RedisStore;
  let processesKilled = 0;
  let faultsInjected = 0;
  const keyPrefix = `vpa-faults-kill:${Math.random().toString(36).slice(2, 10)}:`;

  const apiOn = (server: ServerProcess): Api => (path, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${TEST_API_KEY}`);
    return fetch(`${server.origin}/authz${path}`, { ...init, headers });
  };
  const on = (server: ServerProcess, prepared: PreparedResponse): PreparedResponse => ({ ...prepared, responseUri: prepared.responseUri.replace(`${PUBLIC_ORIGIN}/`, `${server.origin}/`) });

  beforeAll(async () => {
    redis = await startRedis({ persistent: false });
    verifier = await startFaultService('verifier', { kind: 'slow-ok', delayMs: VERIFIER_DELAY_MS });
    worker = await bundleWorker('test/faults/__fixtures__/slow-verifier-server-worker.ts');
    observerStore = redisStore({ url: redis.url, keyPrefix, commandTimeoutMs: 1_000 });
    const { signing } = await testSigningKey();
    const config: WorkerConfig = {
      redisUrl: redis.url,
      keyPrefix,
      publicBaseUrl: `${PUBLIC_ORIGIN}/authz`,
      apiKey: TEST_API_KEY,
      signing,
      redirectUri: 'https://rp.example/callback',
      verifierUrl: verifier.url,
      verifyTimeoutMs: VERIFY_TIMEOUT_MS,
      clientTimeoutMs: CLIENT_TIMEOUT_MS,
    };
    const started = await startWorkers<WorkerConfig, { origin: string; pid: number }, WorkerCommand, WorkerReply>(worker.file, [config, config]);
    [a, b] = started.map((proc) => ({ origin: proc.ready.origin, child: proc.child, process: proc })) as [ServerProcess, ServerProcess];
  }, 60_000);

  afterAll(async () => {
    for (const server of [a, b]) if (server) await server.process.stop();
    await observerStore?.close();
    await verifier?.close();
    await redis?.dispose();
    await worker?.dispose();
    const leaked = await leakedHandles(baseline);
    console.log(
      `[faults] sigkill suite: faults injected ${faultsInjected}, server processes SIGKILLed ${processesKilled}, redis-server processes killed at teardown 1; handles above baseline after close: ${JSON.stringify(leaked)}`,
    );
    expect(leaked, 'sockets, servers, child processes or timers left open by the SIGKILL suite').toEqual({});
  });

  // Each flow goes through B (create + request object) so that A's death does not disturb the setup.
  const prepared: { onA: PreparedResponse[]; onB: PreparedResponse[] } = { onA: [], onB: [] };
  let answersFromA: (WalletAnswer | { status: -1; error: string })[] = [];
  let answersFromB: WalletAnswer[] = [];

  it('SIGKILL of one process mid-processing: the survivor finishes its own responses, the killed ones stay claimed (pending, processing) until the claim deadline', async () => {
    const prepare = async () => {
      const p = await prepareWalletResponse(rewriteToOrigin(apiOn(b)));
      return p;
    };
    prepared.onA = await Promise.all(Array.from({ length: ON_A }, prepare));
    prepared.onB = await Promise.all(Array.from({ length: ON_B }, prepare));

    const postsToA = prepared.onA.map((p) =>
      postWalletResponse(on(a, p), { timeoutMs: 20_000 }).catch((e: unknown) => ({ status: -1 as const, error: String(e) })),
    );
    const postsToB = prepared.onB.map((p) => postWalletResponse(on(b, p), { timeoutMs: 20_000 }));
    // Every response has been claimed and its verify call is in flight at the slow verifier.
    const inFlight = await pollUntil(async () => (verifier.inFlight() >= ON_A + ON_B ? true : undefined), { timeoutMs: 10_000, intervalMs: 20 });
    expect(inFlight, `verify calls in flight: ${verifier.inFlight()}`).toBe(true);

    const exited = new Promise((resolve) => a.child.once('exit', resolve));
    a.child.kill('SIGKILL');
    processesKilled++;
    faultsInjected++;
    await exited;

    answersFromA = await Promise.all(postsToA);
    answersFromB = await Promise.all(postsToB);
    // The killed process answered nobody; the survivor answered its wallets.
    expect(answersFromA.every((x) => x.status === -1), JSON.stringify(answersFromA)).toBe(true);
    for (const answer of answersFromB) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(responseCodeOf(answer)).toBeTruthy();
    }
    for (const p of prepared.onB) expect((await readStatus(apiOn(b), p.authorizationId)).body.status).toBe('authorized');

    // The abandoned claims are still within their deadline: pending, and the status says processing.
    for (const p of prepared.onA) {
      const { code, body } = await readStatus(apiOn(b), p.authorizationId);
      expect(code).toBe(200);
      expect(body.status, JSON.stringify(body)).toBe('pending');
      expect(body.processing, 'the status says the response is being processed').toBe(true);
      const record = await observerStore.get('main', p.authorizationId);
      expect(record?.responseClaimedAt, 'the response was claimed before the kill').toBeTypeOf('number');
      const deadline = record?.claimExpiresAt;
      expect(deadline, 'the claim carries its deadline').toBeTypeOf('number');
      // The deadline is the policy timeouts plus a bounded grace, not the authorization's lifetime.
      expect(deadline! - record!.responseClaimedAt!).toBeLessThanOrEqual(VERIFY_TIMEOUT_MS + CLAIM_MARGIN_MS + 1_000);
    }
  });

  it('a wallet retrying a killed response on the survivor gets a 4xx (already answered), never a second decision, never a 5xx', async () => {
    expect(prepared.onA.length).toBe(ON_A);
    for (const p of prepared.onA) {
      const retry = await postWalletResponse(on(b, p));
      expect(retry.status, JSON.stringify(retry.body)).toBeGreaterThanOrEqual(400);
      expect(retry.status, JSON.stringify(retry.body)).toBeLessThan(500);
      expect(responseCodeOf(retry)).toBeUndefined();
    }
    // Retrying a response the survivor decided is refused as well.
    for (const p of prepared.onB) expect((await postWalletResponse(on(b, p))).status).toBe(400);
  });

  it('after the claim deadline the abandoned authorizations end error with a reason, via the sweep and via a plain read', async () => {
    expect(prepared.onA.length).toBe(ON_A);
    // Nothing is ended early: still pending just before the deadline.
    const sweptEarly = await command(b, { type: 'sweep' });
    expect(sweptEarly.error).toBeUndefined();
    for (const p of prepared.onA) expect((await readStatus(apiOn(b), p.authorizationId)).body.status).toBe('pending');

    await command(b, { type: 'advance', ms: VERIFY_TIMEOUT_MS + CLAIM_MARGIN_MS + 2_000 });
    // Half are ended by a plain read (lazy transition), the rest by the sweep.
    const [byRead, bySweep] = [prepared.onA.slice(0, ON_A / 2), prepared.onA.slice(ON_A / 2)];
    for (const p of byRead) expect((await readStatus(apiOn(b), p.authorizationId)).body.status).toBe('error');
    const swept = await command(b, { type: 'sweep' });
    expect(swept.error).toBeUndefined();
    expect(swept.value).toBe(bySweep.length);

    for (const p of prepared.onA) {
      const { body } = await readStatus(apiOn(b), p.authorizationId);
      expect(body.status).toBe('error');
      expect(body.processing ?? false, 'no longer processing').toBe(false);
      const policy = await readPolicyResponse(apiOn(b), p.authorizationId);
      const reasons = policy.data.filter((r) => r.error !== undefined).map((r) => JSON.stringify(r.error));
      expect(reasons.some((t) => /abandon|not processed in time|processing/i.test(t)), JSON.stringify(reasons)).toBe(true);
      // Still refused afterwards: the claim was abandoned, not released.
      expect((await postWalletResponse(on(b, p))).status).toBe(400);
    }
    // The survivor's own decisions were untouched by the sweep.
    for (const p of prepared.onB) expect((await readStatus(apiOn(b), p.authorizationId)).body.status).toBe('authorized');
  });

  it('the codes handed out by the survivor each resolve exactly once', async () => {
    expect(answersFromB.length).toBe(ON_B);
    for (const answer of answersFromB) {
      const code = responseCodeOf(answer)!;
      const resolve = () => apiOn(b)('/openid4/vp/v1_0/response-code/resolve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ response_code: code }) });
      const statuses = (await Promise.all([resolve(), resolve(), resolve()])).map((r) => r.status).sort();
      expect(statuses).toEqual([200, 404, 404]);
    }
  });

  /** The flow helpers create through `api`; the request object URL points at the public origin, served here by B. */
  function rewriteToOrigin(api: Api): Api {
    return async (path, init) => {
      const res = await api(path, init);
      if (!path.endsWith('/authorizations') || res.status !== 201) return res;
      const body = (await res.json()) as { authorizeUrl: string };
      const authorize = new URL(body.authorizeUrl.replace(/^[a-z0-9+.-]+:\/\//i, 'https://wallet.invalid/'));
      const requestUri = authorize.searchParams.get('request_uri')!.replace(`${PUBLIC_ORIGIN}/`, `${b.origin}/`);
      authorize.searchParams.set('request_uri', requestUri);
      return new Response(JSON.stringify({ ...body, authorizeUrl: authorize.toString() }), { status: 201, headers: { 'content-type': 'application/json' } });
    };
  }

  function command(server: ServerProcess, message: WorkerCommand): Promise<WorkerReply> {
    return server.process.call(message, 10_000);
  }
});

