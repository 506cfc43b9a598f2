/**
 * Two authorizer server processes share one store — Redis, then PostgreSQL (every shipped store); the verifier is an HTTP service that holds its
 * answers until told, so wallet responses are in flight (claimed, not decided) when one process is SIGKILLed, as a rolling
 * deploy or an out-of-memory kill does. A claim is a lease: the killed process's leases run out,
 * each wallet POST that failed is replayed to the survivor, and the survivor decides every one.
 * A third process paused (SIGSTOP) past its lease and resumed finds its late commits refused.
 * Nothing is decided twice; `processing_abandoned` is left to a response nobody resubmits.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostgresStore } from '@vp-authorizer/postgres';
import type { RedisStore } from '@vp-authorizer/redis';
import { TEST_API_KEY, testSigningKey } from '@vp-authorizer/testing';
import { bundleWorker, startWorkers, type BundledWorker, type WorkerProcess } from '../__fixtures__/worker-processes.js';
import { startFaultService, type FaultService } from './__fixtures__/fault-service.js';
import { activeHandleCounts, leakedHandles, pollUntil, postWalletResponse, prepareWalletResponse, readPolicyResponse, readStatus, responseCodeOf, type Api, type PreparedResponse, type WalletAnswer } from './__fixtures__/flow.js';
import { connectStore } from './__fixtures__/shared-store.js';
import { sharedStoreVariants, type StoreVariant } from './__fixtures__/shared-store-variants.js';
import type { WorkerCommand, WorkerConfig, WorkerReply } from './__fixtures__/slow-verifier-server-worker.js';

const PUBLIC_ORIGIN = 'https://verifier.example';
/** How long the verifier takes for responses that are not held (the replays: one processing time). */
const VERIFIER_DELAY_MS = 500;
const VERIFY_TIMEOUT_MS = 8_000;
const CLIENT_TIMEOUT_MS = 7_500;
const LEASE_MS = 1_000;
/** Responses in flight on the process that is killed; all but one are replayed to the survivor. */
const ON_A = 16;
const REPLAYED = 15;
const ON_B = 2;
const PAUSED = 3;

interface ServerProcess {
  origin: string;
  child: ChildProcess;
  process: WorkerProcess<{ origin: string; pid: number }, WorkerCommand, WorkerReply>;
}

type Failed = { status: -1; error: string };

const STORES = sharedStoreVariants('test/faults/server-sigkill.test.ts', 'vpa-faults-kill');

for (const variant of STORES) describeKillSuite(variant);

function describeKillSuite(variant: StoreVariant): void {
  describe.skipIf(variant.skip)(`a server process SIGKILLed or paused while wallet responses are being processed (leases on one ${variant.name})`, () => {
    const baseline = activeHandleCounts();
    let shared: Awaited<ReturnType<StoreVariant['start']>>;
    let verifier: FaultService;
    let worker: BundledWorker;
    let config: WorkerConfig;
    let a: ServerProcess;
    let b: ServerProcess;
    let c: ServerProcess | undefined;
    let observerStore: RedisStore | PostgresStore;
    let processesKilled = 0;
    let processesPaused = 0;
    const counts = { inFlightAtKill: 0, replayed: 0, replayedAuthorized: 0, replayedRejected: 0, replayedError: 0, decidedTwice: 0, lateCommitsRefused: 0, abandoned: 0, finalStatusAfterKillMs: 0 };

    const apiOn = (server: ServerProcess): Api => (path, init = {}) => {
      const headers = new Headers(init.headers);
      headers.set('authorization', `Bearer ${TEST_API_KEY}`);
      return fetch(`${server.origin}/authz${path}`, { ...init, headers });
    };
    const on = (server: ServerProcess, prepared: PreparedResponse): PreparedResponse => ({ ...prepared, responseUri: prepared.responseUri.replace(`${PUBLIC_ORIGIN}/`, `${server.origin}/`) });
    const post = (server: ServerProcess, p: PreparedResponse) => postWalletResponse(on(server, p), { timeoutMs: 30_000 }).catch((e: unknown): Failed => ({ status: -1, error: String(e) }));

    const toServer = (proc: WorkerProcess<{ origin: string; pid: number }, WorkerCommand, WorkerReply>): ServerProcess => ({ origin: proc.ready.origin, child: proc.child, process: proc });

    beforeAll(async () => {
      shared = await variant.start();
      verifier = await startFaultService('verifier', { kind: 'held' });
      worker = await bundleWorker('test/faults/__fixtures__/slow-verifier-server-worker.ts');
      observerStore = connectStore(shared.target);
      const { signing } = await testSigningKey();
      config = {
        store: shared.target,
        publicBaseUrl: `${PUBLIC_ORIGIN}/authz`,
        apiKey: TEST_API_KEY,
        signing,
        redirectUri: 'https://rp.example/callback',
        verifierUrl: verifier.url,
        verifyTimeoutMs: VERIFY_TIMEOUT_MS,
        clientTimeoutMs: CLIENT_TIMEOUT_MS,
        claimLeaseMs: LEASE_MS,
      };
      const started = await startWorkers<WorkerConfig, { origin: string; pid: number }, WorkerCommand, WorkerReply>(worker.file, [config, config]);
      [a, b] = started.map(toServer) as [ServerProcess, ServerProcess];
    }, 60_000);

    afterAll(async () => {
      for (const server of [a, b, c]) if (server) await server.process.stop();
      await observerStore?.close();
      await verifier?.close();
      await shared?.dispose();
      await worker?.dispose();
      const leaked = await leakedHandles(baseline);
      console.log(
        `[faults] lease suite on one ${variant.name}: server processes SIGKILLed ${processesKilled}, SIGSTOPped ${processesPaused}; ${JSON.stringify(counts)}; handles above baseline after close: ${JSON.stringify(leaked)}`,
      );
      expect(leaked, 'sockets, servers, child processes or timers left open by the SIGKILL suite').toEqual({});
    });

    // Each flow goes through B (create + request object) so that A's death does not disturb the setup.
    const prepared: { onA: PreparedResponse[]; onB: PreparedResponse[] } = { onA: [], onB: [] };
    let answersFromB: WalletAnswer[] = [];
    let replayAnswers: (WalletAnswer | Failed)[] = [];
    let killedAt = 0;

    it('SIGKILL of one process mid-processing: its claims stay processing while it renews them, then stop being processing once its leases run out', async () => {
      const prepare = () => prepareWalletResponse(rewriteToOrigin(apiOn(b)));
      prepared.onA = await Promise.all(Array.from({ length: ON_A }, prepare));
      prepared.onB = await Promise.all(Array.from({ length: ON_B }, prepare));

      const postsToA = prepared.onA.map((p) => post(a, p));
      const postsToB = prepared.onB.map((p) => postWalletResponse(on(b, p), { timeoutMs: 30_000 }));
      const inFlight = await pollUntil(async () => (verifier.inFlight() >= ON_A + ON_B ? true : undefined), { timeoutMs: 10_000, intervalMs: 20 });
      expect(inFlight, `verify calls in flight: ${verifier.inFlight()}`).toBe(true);
      // Longer than one lease: the holder has renewed each of its leases by now.
      await new Promise((r) => setTimeout(r, LEASE_MS * 1.5));
      for (const p of prepared.onA) {
        const record = await observerStore.get('main', p.authorizationId);
        expect(record?.claimHolder, 'the claim names its holder').toBeTypeOf('string');
        expect(record!.leaseExpiresAt! - record!.responseClaimedAt!, 'the lease was renewed').toBeGreaterThan(LEASE_MS);
        expect((await readStatus(apiOn(b), p.authorizationId)).body).toEqual({ status: 'pending', processing: true });
      }
      counts.inFlightAtKill = verifier.inFlight();

      const exited = new Promise((resolve) => a.child.once('exit', resolve));
      a.child.kill('SIGKILL');
      killedAt = Date.now();
      processesKilled++;
      await exited;
      // From now on the verifier answers in one processing time: the survivor's held calls first.
      verifier.setFault({ kind: 'slow-ok', delayMs: VERIFIER_DELAY_MS });
      verifier.release();

      const answersFromA = await Promise.all(postsToA);
      answersFromB = await Promise.all(postsToB);
      expect(answersFromA.every((x) => x.status === -1), JSON.stringify(answersFromA)).toBe(true);
      for (const answer of answersFromB) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        expect(responseCodeOf(answer)).toBeTruthy();
      }

      // The leases run out (nobody renews them): still pending, no longer processing.
      for (const p of prepared.onA) {
        const lapsed = await pollUntil(async () => ((await readStatus(apiOn(b), p.authorizationId)).body.processing === undefined ? true : undefined), { timeoutMs: 10_000, intervalMs: 50 });
        expect(lapsed, 'the lease of the killed process ran out').toBe(true);
        expect((await readStatus(apiOn(b), p.authorizationId)).body).toEqual({ status: 'pending' });
      }
    }, 60_000);

    it('each failed POST replayed to the survivor after the lease is decided there: all authorized, none error, none decided twice', async () => {
      const replayed = prepared.onA.slice(0, REPLAYED);
      expect(replayed).toHaveLength(REPLAYED);
      replayAnswers = await Promise.all(replayed.map((p) => post(b, p)));
      counts.replayed = replayAnswers.length;
      for (const answer of replayAnswers) {
        expect(answer.status, JSON.stringify(answer)).toBe(200);
        expect(responseCodeOf(answer as WalletAnswer)).toBeTruthy();
      }
      for (const p of replayed) {
        const { body } = await readStatus(apiOn(b), p.authorizationId);
        if (body.status === 'authorized') counts.replayedAuthorized++;
        else if (body.status === 'rejected') counts.replayedRejected++;
        else counts.replayedError++;
        expect(body).toEqual({ status: 'authorized' });
      }
      counts.finalStatusAfterKillMs = Date.now() - killedAt;
      // Decided once: the survivor's decision events name each authorization once (the killed process decided none).
      const decided = (await command(b, { type: 'decided' })).ids!;
      for (const p of [...replayed, ...prepared.onB]) {
        const times = decided.filter((id) => id === p.authorizationId).length;
        if (times !== 1) counts.decidedTwice++;
        expect(times, p.authorizationId).toBe(1);
      }
      // A replay of a decided response is refused, with no invitation to retry.
      for (const p of replayed.slice(0, 3)) {
        const again = await postWalletResponse(on(b, p));
        expect(again.status).toBe(400);
        expect(again.retryAfter).toBeNull();
      }
    }, 60_000);

    it('the codes handed out by the survivor each resolve exactly once', async () => {
      for (const answer of [...answersFromB, ...(replayAnswers as WalletAnswer[])]) {
        const code = responseCodeOf(answer)!;
        const resolve = () => apiOn(b)('/openid4/vp/v1_0/response-code/resolve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ response_code: code }) });
        const statuses = (await Promise.all([resolve(), resolve(), resolve()])).map((r) => r.status).sort();
        expect(statuses).toEqual([200, 404, 404]);
      }
    });

    it('a process paused (SIGSTOP) past its leases and resumed: the survivor decides the replays, the late commits are refused and logged', async () => {
      [c] = (await startWorkers<WorkerConfig, { origin: string; pid: number }, WorkerCommand, WorkerReply>(worker.file, [config])).map(toServer);
      const paused = await Promise.all(Array.from({ length: PAUSED }, () => prepareWalletResponse(rewriteToOrigin(apiOn(b)))));
      verifier.setFault({ kind: 'held' });
      const before = verifier.inFlight();
      const postsToC = paused.map((p) => post(c!, p));
      expect(await pollUntil(async () => (verifier.inFlight() >= before + PAUSED ? true : undefined), { timeoutMs: 10_000, intervalMs: 20 })).toBe(true);
      c!.child.kill('SIGSTOP');
      processesPaused++;
      try {
        // The paused process's verify answers arrive while it sleeps; it reads them only once resumed.
        verifier.setFault({ kind: 'slow-ok', delayMs: VERIFIER_DELAY_MS });
        verifier.release();
        for (const p of paused) {
          const lapsed = await pollUntil(async () => ((await readStatus(apiOn(b), p.authorizationId)).body.processing === undefined ? true : undefined), { timeoutMs: 10_000, intervalMs: 50 });
          expect(lapsed, 'the paused process cannot renew its leases').toBe(true);
        }
        for (const answer of await Promise.all(paused.map((p) => post(b, p)))) expect(answer.status, JSON.stringify(answer)).toBe(200);
      } finally {
        c!.child.kill('SIGCONT');
      }
      const decidedRecords = await Promise.all(paused.map((p) => observerStore.get('main', p.authorizationId)));
      const lateAnswers = await Promise.all(postsToC);
      for (const answer of lateAnswers) {
        expect(answer.status, JSON.stringify(answer)).toBe(400);
        expect(responseCodeOf(answer as WalletAnswer), 'the late holder hands out no code').toBeUndefined();
      }
      const refused = (await command(c!, { type: 'leaseLost' })).ids!;
      counts.lateCommitsRefused = refused.length;
      expect([...refused].sort()).toEqual(paused.map((p) => p.authorizationId).sort());
      expect((await command(c!, { type: 'decided' })).ids, 'the paused process decided nothing').toEqual([]);
      for (const [i, p] of paused.entries()) {
        const after = await observerStore.get('main', p.authorizationId);
        expect(after, 'the decision made by the survivor stands, unchanged').toEqual(decidedRecords[i]);
        expect(after?.status).toBe('authorized');
      }
    }, 60_000);

    it('the one response nobody resubmitted ends error (abandoned) when its authorization expires, not before', async () => {
      const [forgotten] = prepared.onA.slice(REPLAYED);
      expect((await readStatus(apiOn(b), forgotten!.authorizationId)).body).toEqual({ status: 'pending' });
      expect((await command(b, { type: 'sweep' })).value).toBe(0);
      await command(b, { type: 'advance', ms: 5 * 60_000 });
      expect((await command(b, { type: 'sweep' })).value).toBe(1);
      counts.abandoned = 1;
      expect((await readStatus(apiOn(b), forgotten!.authorizationId)).body).toEqual({ status: 'error' });
      const policy = await readPolicyResponse(apiOn(b), forgotten!.authorizationId);
      expect(policy.data.map((r) => (r.error as { code?: string } | undefined)?.code)).toEqual(['authorizer.processing_abandoned']);
      // The survivor's decisions were untouched by the sweep.
      for (const p of prepared.onA.slice(0, REPLAYED)) expect((await readStatus(apiOn(b), p.authorizationId)).body.status).toBe('authorized');
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
}
