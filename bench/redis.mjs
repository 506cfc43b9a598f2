#!/usr/bin/env node
// Redis, on a private redis-server:
//   1. The one-time code consume (redisStore().consume, GETDEL) against redis-benchmark's own
//      GETDEL, at one connection / one caller and at 16. Goal: ≥ 0.6× redis-benchmark.
//   2. Full flows (local verification, as in full-flow.mjs) against one authorizer process and
//      against two sharing the Redis (each flow resolves its code on the other process). Goal:
//      server CPU per flow with two processes within 10 % of one process.
// With two or more cores and taskset: the authorizer processes on core 0, Redis and the load
// generator on core 1 (a 2-core machine cannot give each process its own core; see the report).
//   BENCH_REDIS_OPS (20000), BENCH_FLOW_SECONDS (6), BENCH_FLOW_CONCURRENCY (4)
import { execFile, spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { promisify } from 'node:util';
import { PID_VCT } from './lib/constants.mjs';
import { measureFlows, testWalletOursFlow } from './lib/flows.mjs';
import { isMain, printJson } from './lib/main.mjs';
import { startRedis } from './lib/redis-server.mjs';
import { startServerProcess } from './lib/server-process.mjs';
import { hasTool, missingTools } from './lib/tools.mjs';

export async function run({ ops = Number(process.env.BENCH_REDIS_OPS ?? 20_000), seconds = Number(process.env.BENCH_FLOW_SECONDS ?? 6), concurrency = Number(process.env.BENCH_FLOW_CONCURRENCY ?? 4) } = {}) {
  const missing = missingTools('redis-server', 'redis-benchmark');
  if (missing) return { skipped: missing };
  const pin = hasTool('taskset') && cpus().length >= 2;
  const redis = await startRedis(pin ? { cpu: 1 } : {});
  try {
    const consume = await consumeVsRedisBenchmark(redis, ops, pin);
    const processes = await oneVsTwoProcesses(redis, { seconds, concurrency }, pin);
    return { pinned: pin, consume, processes };
  } finally {
    await redis.stop();
  }
}

async function consumeVsRedisBenchmark(redis, ops, pin) {
  const { redisStore } = await import('@vp-authorizer/redis');
  const store = redisStore({ url: redis.url, keyPrefix: 'bench-consume:' });
  const value = { instanceId: 'bench', authorizationId: 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d' };
  const rows = [];
  if (pin) pinSelf('0');
  for (const clients of [1, 16]) {
    // redis-benchmark's GETDEL on random keys (mostly absent: GETDEL answers nil after the same lookup).
    const args = ['-p', String(redis.port), '-c', String(clients), '-n', String(ops), '-r', String(ops), '--csv', 'GETDEL', 'code:__rand_int__'];
    // Both clients on core 0, Redis alone on core 1: redis-benchmark and this process get the same core.
    const { stdout } = await promisify(execFile)(pin ? 'taskset' : 'redis-benchmark', pin ? ['-c', '0', 'redis-benchmark', ...args] : args, { encoding: 'utf8' });
    const benchmarkRps = Number(stdout.trim().split('\n').pop().split(',')[1]?.replace(/"/g, ''));
    // Ours: every consume finds its code (a value comes back), `clients` callers on the store's one connection.
    for (let i = 0; i < ops; i++) await store.put(`c${clients}-${i}`, value, 60_000);
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (next < ops) {
          const got = await store.consume(`c${clients}-${next++}`);
          if (!got) throw new Error('a stored code was not found');
        }
      }),
    );
    const storeRps = ops / ((performance.now() - started) / 1000);
    rows.push({ clients, redisBenchmarkGetdelPerSecond: Math.round(benchmarkRps), storeConsumePerSecond: Math.round(storeRps), ratio: +(storeRps / benchmarkRps).toFixed(2) });
    console.error(`redis consume c=${clients}: ${Math.round(storeRps)}/s vs redis-benchmark ${Math.round(benchmarkRps)}/s`);
  }
  await store.close();
  if (pin) pinSelf(`0-${cpus().length - 1}`);
  return rows;
}

/** Move this process (every thread) to `cores`, as taskset would have started it. */
function pinSelf(cores) {
  spawnSync('taskset', ['-a', '-p', '-c', cores, String(process.pid)], { stdio: 'ignore' });
}

async function oneVsTwoProcesses(redis, options, pin) {
  const { allowInsecureUrlsForTests, createTestIssuer, createTestWallet } = await import('@vp-authorizer/testing');
  allowInsecureUrlsForTests();
  const issuer = await createTestIssuer({ commonName: 'bench issuer' });
  const wallet = await createTestWallet();
  await wallet.addSdJwtVc(issuer, { vct: PID_VCT, claims: { given_name: 'Erika' } });
  const spec = { kind: 'ours', framework: 'express', clients: 'local', issuerRootPem: issuer.rootCertificatePem, redisUrl: redis.url };
  const result = {};
  for (const count of [1, 2]) {
    const servers = [];
    for (let i = 0; i < count; i++) servers.push(await startServerProcess(spec, pin ? { cpu: 0 } : {}));
    // Flows alternate between processes; each resolves its code on the next one.
    let turn = 0;
    const flows = servers.map((s, i) => testWalletOursFlow({ ...s.info, resolveOrigin: servers[(i + 1) % count].origin }, wallet));
    const all = { cpuMicros: async () => (await Promise.all(servers.map((s) => s.cpuMicros()))).reduce((a, b) => a + b, 0) };
    // The same warm-up per process as with one process.
    const measured = await measureFlows(all, () => flows[turn++ % count](), { ...options, warmup: Number(process.env.BENCH_FLOW_WARMUP ?? 60) * count, counters: { redisCommands: () => redis.commandsProcessed() } });
    result[count === 1 ? 'one' : 'two'] = measured;
    for (const s of servers) await s.close();
    console.error(`redis ${count} process(es): ${measured.serverCpuMsPerFlow} ms CPU/flow, ${measured.flowsPerSecond} flows/s`);
  }
  result.cpuTwoVsOne = +(result.two.serverCpuMsPerFlow / result.one.serverCpuMsPerFlow).toFixed(2);
  result.throughputTwoVsOne = +(result.two.flowsPerSecond / result.one.flowsPerSecond).toFixed(2);
  return result;
}

if (isMain(import.meta.url)) printJson(await run());
