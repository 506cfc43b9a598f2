#!/usr/bin/env node
// PostgreSQL, on a private cluster (scripts/postgres-cluster.mjs: initdb into a temporary
// directory, fsync off, as the tests run it):
//   1. postgresStore().consume and .compareAndSet against the same statements (same text, same
//      prepared-statement names, same parameters, JSON serialised alike) sent with a bare
//      node-postgres pool of the same size, in the same process, at 1 and at 16 callers (the bare
//      side prepares them under names of its own).
//      Goal: ≥ 0.7× the bare client.
//   2. Bytes per pending authorization in PostgreSQL: growth of the authorization table and its
//      indexes (pg_total_relation_size, after VACUUM) over BENCH_PG_SAMPLE real creates.
//   3. The full flow (local verification, the bench wallet of redis.mjs) against one authorizer
//      process on PostgreSQL and one on Redis (redis-server on PATH), in interleaved rounds:
//      flows per second and server CPU per flow on each, and their ratios (no goal: a measurement).
//   BENCH_PG_OPS (4000 per slice), BENCH_PG_ROUNDS (5), BENCH_PG_SAMPLE (2000),
//   BENCH_PG_FLOW_SECONDS (2 per store and round), BENCH_FLOW_CONCURRENCY (4), BENCH_PG_FLOW_WARMUP (300 flows per store),
//   BENCH_PG_PART (all; `statements` for parts 1 and 2, `flow` for part 3)
import { randomUUID } from 'node:crypto';
import { PID_QUERY } from './lib/constants.mjs';
import { isMain, printJson } from './lib/main.mjs';
import { median } from './lib/measure.mjs';
import { postgresBinDir, startPostgresCluster } from '../scripts/postgres-cluster.mjs';
import { PID_VCT } from './lib/constants.mjs';
import { createBenchWallet, issueBenchCredential } from './lib/bench-wallet.mjs';
import { oursFlow } from './lib/flows.mjs';
import { startRedis } from './lib/redis-server.mjs';
import { startServerProcess } from './lib/server-process.mjs';
import { hasTool } from './lib/tools.mjs';
import { runFlows } from './redis.mjs';

const SCHEMA = 'bench';
const POOL_SIZE = 10;

export async function run({ ops = Number(process.env.BENCH_PG_OPS ?? 4_000), rounds = Number(process.env.BENCH_PG_ROUNDS ?? 5), sample = Number(process.env.BENCH_PG_SAMPLE ?? 2_000) } = {}) {
  if (postgresBinDir() === undefined) return { skipped: 'PostgreSQL (initdb, postgres) not installed' };
  const { default: pg } = await import('pg');
  const { migrate, postgresStore } = await import('@vp-authorizer/postgres');
  const cluster = await startPostgresCluster();
  try {
    // BENCH_PG_PART=statements (parts 1 and 2) or flow (part 3) runs that part alone.
    const part = process.env.BENCH_PG_PART;
    let result = {};
    if (part !== 'flow') {
      await migrate(cluster.url, { schema: SCHEMA });
      const store = postgresStore({ url: cluster.url, schema: SCHEMA, maxConnections: POOL_SIZE, poolWaitMs: 30_000, cleanupIntervalMs: 0 });
      const bare = new pg.Pool({ connectionString: cluster.url, max: POOL_SIZE });
      const ratios = await statementRatios({ store, bare, ops, rounds });
      await bare.end();
      await store.close();
      const bytesPerPending = await pendingBytes(cluster.url, sample, postgresStore, pg);
      result = { ops, rounds, poolSize: POOL_SIZE, ...ratios, bytesPerPending };
    }
    if (part !== 'statements') {
      await migrate(cluster.url, { schema: FLOW_SCHEMA });
      result.fullFlow = await fullFlowPostgresVsRedis(cluster.url, { rounds });
    }
    return result;
  } finally {
    await cluster.dispose();
  }
}

async function statementRatios({ store, bare, ops, rounds }) {
  const codes = `${SCHEMA}.vpa_response_codes`;
  const table = `${SCHEMA}.vpa_authorizations`;
  // The store's own statements, as it sends them (see packages/postgres/src/store-statements.ts).
  const consumeSql = { name: 'bench_bare_consume', text: `DELETE FROM ${codes} WHERE key = $1 RETURNING entry, kept_until > statement_timestamp() AS live` };
  const casSql = {
    name: 'bench_bare_compare_and_set',
    text:
      `UPDATE ${table} SET version = $4, status = $5, due_at = $6::bigint, record = $8::json, ` +
      `kept_until = CASE WHEN $7::double precision IS NULL THEN kept_until ELSE statement_timestamp() + $7::double precision * interval '1 millisecond' END ` +
      `WHERE instance_id = $1 AND id = $2 AND version = $3 AND kept_until > statement_timestamp()`,
  };
  const value = { instanceId: 'bench', authorizationId: 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d' };
  let batch = 0;
  const putCodes = async (count) => {
    const prefix = `bench:b${batch++}-`;
    for (let i = 0; i < count; i += 100) {
      await Promise.all(Array.from({ length: Math.min(100, count - i) }, (_, k) => store.put(prefix + (i + k), value, 600_000)));
    }
    return prefix;
  };
  const rate = async (clients, count, op) => {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (next < count) await op(next++);
      }),
    );
    return count / ((performance.now() - started) / 1000);
  };
  const consumeStore = async (clients, count) => {
    const prefix = await putCodes(count);
    return rate(clients, count, async (i) => {
      if ((await store.consume(prefix + i)) === null) throw new Error('a stored code was not found');
    });
  };
  const consumeBare = async (clients, count) => {
    const prefix = await putCodes(count);
    return rate(clients, count, async (i) => {
      const { rows } = await bare.query({ ...consumeSql, values: [prefix + i] });
      if (!rows[0]?.live) throw new Error('a stored code was not found');
    });
  };

  // Compare-and-set: `count` pending records, every pass moves each one version on (store and bare alternate).
  const records = Array.from({ length: ops }, () => pendingRecord());
  for (let i = 0; i < records.length; i += 100) await Promise.all(records.slice(i, i + 100).map((r) => store.create(r, 600_000)));
  const bump = (record) => ({ ...record, version: record.version + 1, updatedAt: record.updatedAt + 1 });
  const casStore = (clients, count) =>
    rate(clients, count, async (i) => {
      const next = bump(records[i]);
      if (!(await store.compareAndSet(next, records[i].version))) throw new Error('compare-and-set lost');
      records[i] = next;
    });
  const casBare = (clients, count) =>
    rate(clients, count, async (i) => {
      const next = bump(records[i]);
      const result = await bare.query({ ...casSql, values: [next.instanceId, next.id, records[i].version, next.version, next.status, next.expiresAt, null, JSON.stringify(next)] });
      if (result.rowCount !== 1) throw new Error('compare-and-set lost');
      records[i] = next;
    });

  const compare = async (name, ours, theirs) => {
    const out = [];
    for (const clients of [1, 16]) {
      // Unmeasured warm-up of both (JIT, prepared statements on every connection).
      await ours(clients, Math.min(ops, 1_000));
      await theirs(clients, Math.min(ops, 1_000));
      const rows = [];
      for (let round = 0; round < rounds; round++) {
        // Alternate which goes first, so a slow spell of the host lands on both.
        let storeRps;
        let bareRps;
        if (round % 2 === 0) {
          storeRps = await ours(clients, ops);
          bareRps = await theirs(clients, ops);
        } else {
          bareRps = await theirs(clients, ops);
          storeRps = await ours(clients, ops);
        }
        rows.push({ storeRps, bareRps });
        console.error(`postgres ${name} c=${clients} round ${round + 1}/${rounds}: store ${Math.round(storeRps)}/s vs bare pg ${Math.round(bareRps)}/s`);
      }
      out.push({
        clients,
        storePerSecond: Math.round(median(rows.map((r) => r.storeRps))),
        barePerSecond: Math.round(median(rows.map((r) => r.bareRps))),
        ratio: +median(rows.map((r) => r.storeRps / r.bareRps)).toFixed(3),
        roundRatios: rows.map((r) => +(r.storeRps / r.bareRps).toFixed(3)),
      });
    }
    return out;
  };
  return { consume: await compare('consume', consumeStore, consumeBare), compareAndSet: await compare('compare-and-set', casStore, casBare) };
}

/** A pending record as the core writes it, small but complete enough for the table. */
function pendingRecord() {
  const now = Date.now();
  return {
    id: randomUUID(),
    instanceId: 'bench',
    version: 1,
    status: 'pending',
    createdAt: now,
    updatedAt: now,
    expiresAt: now + 300_000,
    request: { nonce: randomUUID(), state: randomUUID(), responseMode: 'direct_post.jwt' },
    policyResults: [],
    credentials: [],
  };
}

/** Table + index bytes per pending authorization, from real creates through an authorizer. */
async function pendingBytes(url, sample, postgresStore, pg) {
  const { createAuthorizer, passThroughValidator, passThroughVerifier } = await import('@vp-authorizer/core');
  const { generateDevSigningKey } = await import('@vp-authorizer/keys');
  const { migrate } = await import('@vp-authorizer/postgres');
  const schema = 'bench_pending';
  await migrate(url, { schema });
  const { signing } = await generateDevSigningKey();
  const store = postgresStore({ url, schema, cleanupIntervalMs: 0 });
  const authorizer = createAuthorizer({
    publicBaseUrl: 'https://rp.example/authz',
    sweepIntervalMs: 0,
    store,
    instances: [{ id: 'bench', apiKeys: ['bench-api-key-0001'], signing, validator: passThroughValidator(), verifier: passThroughVerifier(), config: { openId4vp: { redirectUri: 'https://rp.example/cb' } } }],
  });
  await authorizer.ready();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const size = async () => {
    await admin.query(`VACUUM ${schema}.vpa_authorizations`);
    const { rows } = await admin.query(`SELECT pg_total_relation_size('${schema}.vpa_authorizations') AS total, pg_indexes_size('${schema}.vpa_authorizations') AS indexes`);
    return { total: Number(rows[0].total), indexes: Number(rows[0].indexes) };
  };
  await authorizer.createAuthorization('bench', { responseMode: 'direct_post.jwt', query: PID_QUERY });
  const before = await size();
  for (let i = 0; i < sample; i++) await authorizer.createAuthorization('bench', { responseMode: 'direct_post.jwt', query: PID_QUERY });
  const after = await size();
  const { rows } = await admin.query(`SELECT avg(pg_column_size(record))::int AS record FROM ${schema}.vpa_authorizations`);
  await admin.end();
  await authorizer.close();
  await store.close();
  return {
    sample,
    tableAndIndexes: Math.round((after.total - before.total) / sample),
    indexes: Math.round((after.indexes - before.indexes) / sample),
    recordJsonBytes: rows[0].record,
  };
}

const FLOW_SCHEMA = 'bench_flow';

/**
 * The full flow on PostgreSQL against the same flow on Redis: one authorizer process per store
 * (same framework, same local clients, the default pool and timeouts of each store), driven in
 * turn by the bench wallet from this process, order alternating by round. Server CPU is the
 * authorizer process's own (the database's and Redis's are not counted).
 */
async function fullFlowPostgresVsRedis(url, { rounds }) {
  if (!hasTool('redis-server')) return { skipped: 'redis-server not installed: nothing to compare with' };
  const seconds = Number(process.env.BENCH_PG_FLOW_SECONDS ?? 2);
  const concurrency = Number(process.env.BENCH_FLOW_CONCURRENCY ?? 4);
  const warmup = Number(process.env.BENCH_PG_FLOW_WARMUP ?? 300);
  const redis = await startRedis();
  const credential = await issueBenchCredential({ vct: PID_VCT, claims: { given_name: 'Erika' } });
  const spec = { kind: 'ours', framework: 'express', clients: 'local', issuerRootPem: credential.issuer.rootCertificatePem };
  const servers = {
    postgres: await startServerProcess({ ...spec, postgresUrl: url, postgresSchema: FLOW_SCHEMA }),
    redis: await startServerProcess({ ...spec, redisUrl: redis.url }),
  };
  try {
    const wallet = createBenchWallet({ credential, verifierTrustAnchors: Object.values(servers).map((s) => s.info.trustAnchor) });
    const flows = { postgres: oursFlow(servers.postgres.info, wallet), redis: oursFlow(servers.redis.info, wallet) };
    for (const flow of Object.values(flows)) await runFlows(flow, { flows: warmup, concurrency });
    const samples = { postgres: [], redis: [] };
    for (let round = 0; round < rounds; round++) {
      for (const store of round % 2 === 0 ? ['postgres', 'redis'] : ['redis', 'postgres']) {
        const before = await servers[store].cpuMicros();
        const { flows: done, elapsedS } = await runFlows(flows[store], { seconds, concurrency });
        const cpuMs = ((await servers[store].cpuMicros()) - before) / 1000;
        samples[store].push({ flows: done, elapsedS, cpuMs });
        console.error(`full flow on ${store}: ${(done / elapsedS).toFixed(1)} flows/s, ${(cpuMs / done).toFixed(3)} ms server CPU/flow`);
      }
    }
    const summary = (list) => {
      const total = list.reduce((n, r) => n + r.flows, 0);
      const elapsed = list.reduce((n, r) => n + r.elapsedS, 0);
      return { flows: total, flowsPerSecond: +(total / elapsed).toFixed(1), serverCpuMsPerFlow: +(list.reduce((n, r) => n + r.cpuMs, 0) / total).toFixed(3) };
    };
    const byRound = (value) => samples.postgres.map((r, i) => value(r) / value(samples.redis[i]));
    return {
      client: 'bench wallet',
      concurrency,
      sliceSeconds: seconds,
      postgres: summary(samples.postgres),
      redis: summary(samples.redis),
      flowsPerSecondPostgresVsRedis: +median(byRound((r) => r.flows / r.elapsedS)).toFixed(2),
      serverCpuPerFlowPostgresVsRedis: +median(byRound((r) => r.cpuMs / r.flows)).toFixed(2),
    };
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.close()));
    await redis.stop();
  }
}

if (isMain(import.meta.url)) printJson(await run());
