/**
 * A PostgreSQL store whose pool is exhausted: two status reads hold both connections (blocked by a
 * table lock another session holds), and 28 more arrive over HTTP. Each of those waits at most the
 * pool wait, then answers 503 with Retry-After while the lock is still held (none hangs until the
 * database frees up); once the lock is released the two blocked reads answer 200 and the server
 * serves again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { migrate, postgresStore, type PostgresStore } from '@vp-authorizer/postgres';
import { postgresUrlForTests, startPassThroughAuthorizer, testSchema } from '@vp-authorizer/testing';
import { contractDcql } from '@vp-authorizer/testing/contracts';

const url = postgresUrlForTests('test/faults/postgres-pool-exhausted-answers-503-with-retry-after-over-http.test.ts');
const CONNECTIONS = 2;
const READS = 30;

describe.skipIf(url === undefined)('a PostgreSQL store with its pool exhausted, over HTTP', () => {
  const schema = testSchema();
  let admin: pg.Pool;
  let store: PostgresStore;
  let env: Awaited<ReturnType<typeof startPassThroughAuthorizer>>;

  beforeAll(async () => {
    admin = new pg.Pool({ connectionString: url, max: 2 });
    await migrate(admin, { schema });
    // The statement timeout is far above the pool wait: the blocked reads hold their connections.
    store = postgresStore({ url: url!, schema, maxConnections: CONNECTIONS, poolWaitMs: 200, statementTimeoutMs: 20_000, cleanupIntervalMs: 0 });
    env = await startPassThroughAuthorizer({ store });
  });

  afterAll(async () => {
    await env?.close();
    await store?.close();
    await admin?.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin?.end();
  });

  const create = () =>
    env.api('/openid4/vp/v1_0/authorizations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: contractDcql } }) });

  it('bounded waits: 503 with Retry-After while the pool is full, never a hang; 200 again once it frees', async () => {
    const created = await create();
    expect(created.status).toBe(201);
    const { authorizationId } = (await created.json()) as { authorizationId: string };

    const locker = await admin.connect();
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE ${schema}.vpa_authorizations IN ACCESS EXCLUSIVE MODE`);
    const answers: { status: number; retryAfter: string | null; type?: string }[] = [];
    let reads: Promise<void>[];
    try {
      // The signal turns a hang into a failure; it is not a timing assertion.
      reads = Array.from({ length: READS }, async () => {
        const res = await env.api(`/openid4/vp/v1_0/authorizations/${authorizationId}/status`, { signal: AbortSignal.timeout(30_000) });
        const body = (await res.json()) as { type?: string };
        answers.push({ status: res.status, retryAfter: res.headers.get('retry-after'), ...(res.status === 503 ? { type: body.type } : {}) });
      });
      // Every read that did not get a connection is answered while the lock is still held.
      await expect.poll(() => answers.length, { timeout: 20_000 }).toBe(READS - CONNECTIONS);
      expect(answers.every((a) => a.status === 503 && Number(a.retryAfter) > 0 && a.type === 'store.unavailable')).toBe(true);
    } finally {
      await locker.query('ROLLBACK');
      locker.release();
    }
    await Promise.all(reads);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(CONNECTIONS);
    expect(answers.filter((a) => a.status === 503)).toHaveLength(READS - CONNECTIONS);
    // Serving again.
    expect((await create()).status).toBe(201);
    expect((await env.api(`/openid4/vp/v1_0/authorizations/${authorizationId}/status`)).status).toBe(200);
  }, 60_000);
});
