#!/usr/bin/env node
// Pending authorizations at scale, in process (run with --expose-gc for exact heap figures):
//   - bytes per pending authorization: heap growth (memory store) or Redis used_memory growth
//     over BENCH_PENDING_SAMPLE real creates — goal < 4 KB;
//   - create and status latency with 1,000 and with 100,000 pending — goal: flat within ±20 %.
// The store is filled to 100,000 with copies of a real record under fresh ids (a real create
// costs a key generation; filling with them would take minutes without changing what is stored).
//   BENCH_PENDING_MAX (100000), BENCH_PENDING_SAMPLE (2000)
import { randomUUID } from 'node:crypto';
import { PID_QUERY } from './lib/constants.mjs';
import { isMain, printJson } from './lib/main.mjs';
import { measure } from './lib/measure.mjs';
import { startRedis } from './lib/redis-server.mjs';
import { missingTools } from './lib/tools.mjs';

const gc = () => globalThis.gc?.();

export async function run({ max = Number(process.env.BENCH_PENDING_MAX ?? 100_000), sample = Number(process.env.BENCH_PENDING_SAMPLE ?? 2000) } = {}) {
  const { createAuthorizer, generateDevSigningKey, memoryStore, passThroughValidator, passThroughVerifier } = await import('@vp-authorizer/core');
  const { signing } = await generateDevSigningKey();
  const build = (store) =>
    createAuthorizer({
      publicBaseUrl: 'https://rp.example/authz',
      sweepIntervalMs: 0,
      store,
      instances: [{ id: 'bench', apiKeys: ['bench-api-key-0001'], signing, validator: passThroughValidator(), verifier: passThroughVerifier(), config: { openId4vp: { redirectUri: 'https://rp.example/cb' } } }],
    });
  const create = (authorizer) => authorizer.createAuthorization('bench', { responseMode: 'direct_post.jwt', query: PID_QUERY });

  // Bytes per pending, memory store.
  const store = memoryStore({ sweepIntervalMs: 0 });
  const authorizer = build(store);
  await authorizer.ready();
  await create(authorizer); // first-use allocations out of the sample
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const ids = [];
  for (let i = 0; i < sample; i++) ids.push((await create(authorizer)).authorizationId);
  gc();
  const memoryBytes = Math.round((process.memoryUsage().heapUsed - heapBefore) / sample);

  // Latency at 1,000 and at `max` pending, on a store of their own filled with copies of a real record.
  const template = await store.get('bench', ids[0]);
  await authorizer.close();
  const scaled = memoryStore({ sweepIntervalMs: 0 });
  const onScaled = build(scaled);
  await onScaled.ready();
  const pendingIds = [];
  const fill = async (target) => {
    while (pendingIds.length < target) {
      const id = randomUUID();
      await scaled.create({ ...structuredClone(template), id }, 10 * 60_000);
      pendingIds.push(id);
    }
  };
  const opts = { iterations: 200, rounds: 5, warmup: 50 };
  const HOT_SET = 1000;
  let created = 0;
  const latency = async (pending) => {
    await fill(pending);
    const before = pendingIds.length + created;
    let i = 0;
    const createMs = (await measure('create', () => (created++, create(onScaled)), opts)).medianMsPerOp;
    // Status reads cycle over the same number of most recent authorizations at both sizes (those a
    // relying party polls): cycling over all 100,000 would measure CPU cache misses (each read a
    // cold record), not how the store scales. Measured here: 5 µs on 2,000 of 102,000 records,
    // 14 µs when cycling over all of them, on the same store.
    const recent = Math.min(HOT_SET, pendingIds.length);
    const statusMs = (await measure('status', () => onScaled.getStatus('bench', pendingIds[pendingIds.length - 1 - (i++ % recent)]), { ...opts, iterations: 2000 })).medianMsPerOp;
    return { pending: before, createMs: +createMs.toFixed(3), statusMs: +statusMs.toFixed(4) };
  };
  // A first pass only warms the JIT up (else the small population pays for it and the large one
  // looks faster); the creates measured add to the population, which `pending` counts.
  await latency(100);
  const small = await latency(1000);
  const large = await latency(max);
  await onScaled.close();

  let redisBytes = null;
  const missing = missingTools('redis-server');
  if (!missing) {
    const { redisStore } = await import('@vp-authorizer/redis');
    const redis = await startRedis();
    const onRedis = build(redisStore({ url: redis.url }));
    await create(onRedis);
    const before = await redis.usedMemory();
    for (let i = 0; i < sample; i++) await create(onRedis);
    redisBytes = Math.round(((await redis.usedMemory()) - before) / sample);
    await onRedis.close();
    await redis.stop();
  }
  return {
    sample,
    bytesPerPending: { memoryStore: memoryBytes, redis: redisBytes ?? { skipped: missing } },
    latency: { small, large, createLargeVsSmall: +(large.createMs / small.createMs).toFixed(2), statusLargeVsSmall: +(large.statusMs / small.statusMs).toFixed(2) },
    exactHeap: typeof globalThis.gc === 'function',
  };
}

if (isMain(import.meta.url)) printJson(await run());
