/**
 * PostgreSQL killed (SIGKILL to the server and all its processes) and restarted under load, under an
 * authorizer on postgresStore: while it is down every route answers 503 + Retry-After in bounded
 * time (never 500, never a hang); afterwards the service resumes by itself (no reconnect call);
 * the wallet response that got 503 is retried to completion and its response code resolves once.
 * The suite runs its own cluster (not the shared POSTGRES_URL one), so it can kill it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, postgresStore } from '@vp-authorizer/postgres';
import { startPassThroughAuthorizer } from '@vp-authorizer/testing';
import { postgresBinDir, startPostgresCluster, type PostgresCluster } from '../../scripts/postgres-cluster.mjs';
import { pollUntil, postWalletResponse, prepareWalletResponse, readStatus, responseCodeOf, type Api } from './__fixtures__/flow.js';

const STATEMENT_TIMEOUT_MS = 500;
const POOL_WAIT_MS = 500;
/** Every answer during an outage must come within this (several store calls, each bounded). */
const OUTAGE_ANSWER_BOUND_MS = 6 * (STATEMENT_TIMEOUT_MS + 1_000) + 2_000;
const LOAD_CLIENTS = 8;

const createBody = JSON.stringify({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt' }] } } });

describe.skipIf(postgresBinDir() === undefined)('PostgreSQL killed and restarted under a running authorizer', () => {
  let cluster: PostgresCluster;

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    await migrate(cluster.url);
  }, 60_000);
  afterAll(async () => {
    await cluster?.dispose();
  });

  /** RP traffic in loops (creates; status reads of one authorization) until stopped; every answer is recorded. */
  function startLoad(api: Api) {
    const answers: { route: string; status: number; retryAfter: string | null; ms: number }[] = [];
    let running = true;
    const record = async (route: string, call: () => Promise<Response>) => {
      const started = Date.now();
      const res = await call();
      await res.arrayBuffer();
      answers.push({ route, status: res.status, retryAfter: res.headers.get('retry-after'), ms: Date.now() - started });
      return res;
    };
    const client = async () => {
      while (running) {
        const created = await record('create', () => api('/openid4/vp/v1_0/authorizations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: createBody }));
        // Back off a little after a refusal, as a client told to retry would.
        if (created.status !== 201) await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const statusClient = async (id: string) => {
      while (running) await record('status', () => api(`/openid4/vp/v1_0/authorizations/${id}/status`));
    };
    return {
      answers,
      run(statusId: string) {
        const loops = [...Array.from({ length: LOAD_CLIENTS / 2 }, client), ...Array.from({ length: LOAD_CLIENTS / 2 }, () => statusClient(statusId))];
        return async () => {
          running = false;
          await Promise.all(loops);
        };
      },
    };
  }

  it('under load: 503 with Retry-After while down, service resumes by itself, and the wallet response that got 503 is retried to completion', async () => {
    const store = postgresStore({ url: cluster.url, statementTimeoutMs: STATEMENT_TIMEOUT_MS, poolWaitMs: POOL_WAIT_MS, cleanupIntervalMs: 0 });
    const env = await startPassThroughAuthorizer({ store, instance: { config: { openId4vp: { redirectUri: 'https://rp.example/callback', expiresAfter: 120_000 } } } });
    try {
      const prepared = await prepareWalletResponse(env.api);
      const load = startLoad(env.api);
      const stopLoad = load.run(prepared.authorizationId);
      await pollUntil(async () => (load.answers.filter((a) => a.status === 200).length >= 20 ? true : undefined), { timeoutMs: 20_000 });

      await cluster.kill();
      const killedAt = load.answers.length;
      // The wallet posts its response while the database is gone.
      const walletDuringOutage = await postWalletResponse(prepared);
      const resolveDuringOutage = await env.api('/openid4/vp/v1_0/response-code/resolve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ response_code: 'A'.repeat(43) }) });
      await pollUntil(async () => (load.answers.slice(killedAt).filter((a) => a.status === 503).length >= 10 ? true : undefined), { timeoutMs: 20_000 });

      await cluster.start();
      const restartedAt = load.answers.length;
      const resumed = await pollUntil(async () => ((await readStatus(env.api, prepared.authorizationId)).code === 200 ? true : undefined), { timeoutMs: 20_000, intervalMs: 100 });
      await pollUntil(async () => (load.answers.slice(restartedAt).filter((a) => a.status === 200 || a.status === 201).length >= 20 ? true : undefined), { timeoutMs: 20_000 });
      await stopLoad();

      const outage = load.answers.slice(killedAt, restartedAt);
      const statuses = (list: typeof outage) => list.reduce<Record<number, number>>((n, a) => ({ ...n, [a.status]: (n[a.status] ?? 0) + 1 }), {});
      console.log(
        `[faults] postgres SIGKILL under load: ${load.answers.length} RP answers (${LOAD_CLIENTS} clients); during the outage ${JSON.stringify(statuses(outage))}, slowest ${Math.max(...outage.map((a) => a.ms))} ms; ` +
          `after restart ${JSON.stringify(statuses(load.answers.slice(restartedAt)))}; wallet during outage ${walletDuringOutage.status} (Retry-After ${walletDuringOutage.retryAfter})`,
      );

      // Never a 500, anywhere in the run; every 503 says when to retry.
      expect(load.answers.filter((a) => a.status >= 500 && a.status !== 503)).toEqual([]);
      expect(load.answers.filter((a) => a.status === 503 && !(Number(a.retryAfter) > 0))).toEqual([]);
      expect(outage.filter((a) => a.status === 503).length).toBeGreaterThanOrEqual(10);
      expect(outage.filter((a) => a.ms >= OUTAGE_ANSWER_BOUND_MS)).toEqual([]);
      expect(walletDuringOutage.status, JSON.stringify(walletDuringOutage.body)).toBe(503);
      expect(Number(walletDuringOutage.retryAfter)).toBeGreaterThan(0);
      expect(resolveDuringOutage.status).toBe(503);
      expect(Number(resolveDuringOutage.headers.get('retry-after'))).toBeGreaterThan(0);

      // Resumed without any call from the test, and the 503 changed nothing: the retry completes.
      expect(resumed, 'the RP is served again after the restart').toBe(true);
      expect((await readStatus(env.api, prepared.authorizationId)).body.status).toBe('pending');
      const retry = await postWalletResponse(prepared);
      expect(retry.status, JSON.stringify(retry.body)).toBe(200);
      const code = responseCodeOf(retry);
      expect(code).toBeTruthy();
      const resolve = () => env.api('/openid4/vp/v1_0/response-code/resolve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ response_code: code }) });
      expect((await resolve()).status).toBe(200);
      expect((await resolve()).status).not.toBe(200);
      expect((await readStatus(env.api, prepared.authorizationId)).body.status).toBe('authorized');
    } finally {
      await env.close();
      await store.close();
    }
  });
});
