#!/usr/bin/env node
// Pending authorizations at scale, in process (run with --expose-gc for exact heap figures):
//   - bytes per pending authorization: heap growth (memory store) or Redis used_memory growth
//     over BENCH_PENDING_SAMPLE real creates — goal < 4 KB;
//   - create and status latency with 1,000 and with 100,000 pending — goal: flat within ±20 %.
// The store is filled to 100,000 with copies of a real record under fresh ids (a real create
// costs a key generation; filling with them would take minutes without changing what is stored).
//   BENCH_PENDING_MAX (100000), BENCH_PENDING_SAMPLE (2000), BENCH_PENDING_ROUNDS (11)
import { randomUUID } from 'node:crypto';
import { PID_QUERY } from './lib/constants.mjs';
import { isMain, printJson } from './lib/main.mjs';
import { startRedis } from './lib/redis-server.mjs';
import { missingTools } from './lib/tools.mjs';

const gc = () => globalThis.gc?.();

export async function run({ max = Number(process.env.BENCH_PENDING_MAX ?? 100_000), sample = Number(process.env.BENCH_PENDING_SAMPLE ?? 2000) } = {}) {
  const { createAuthorizer, memoryStore, passThroughValidator, passThroughVerifier } = await import('@vp-authorizer/core');
  const { generateDevSigningKey } = await import('@vp-authorizer/keys');
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

  // Latency at 1,000 and at `max` pending: two stores of their own, filled with copies of a real
  // record, measured in interleaved rounds (the order alternating) after both are warmed up, so
  // JIT warm-up and a neighbour's load fall on both sizes alike instead of on whichever ran first.
  // Both live in one heap: this compares the store's lookups and indexes at each size, while the
  // extra GC work of a heap holding 100,000 records falls on both alike.
  const template = await store.get('bench', ids[0]);
  await authorizer.close();
  const HOT_SET = 1000;
  const populated = async () => {
    // The default quota (100,000 records, 256 MiB per instance) is what a server should run with;
    // the scale test holds more on purpose, with room for the creates it times on top of `max`.
    const scaled = memoryStore({ sweepIntervalMs: 0, maxRecordsPerInstance: 2 * max, maxBytesPerInstance: 4 * 1024 ** 3 });
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
    return { authorizer: onScaled, pendingIds, fill, created: 0 };
  };
  const sizes = { small: await populated(), large: await populated() };
  // The large store's older records first; then the records each size's status reads cycle over
  // (its most recent HOT_SET) are filled in turn, so both sets are allocated alike in the heap (a
  // set allocated later or earlier than the other reads measurably faster or slower).
  await sizes.large.fill(max - HOT_SET);
  for (let n = 1; n <= HOT_SET; n++) {
    await sizes.small.fill(n);
    await sizes.large.fill(max - HOT_SET + n);
  }
  const CREATES = 200;
  // Status reads come in STATUS_SLICES back-to-back pairs per round: one read costs about a µs,
  // and in a single 10,000-read window per size a garbage collection step of the 100,000-record
  // heap landing in one window or the other decided the round (ratios 0.4–1.8 within one run).
  const STATUS_READS = 2_000;
  const STATUS_SLICES = 5;
  const ROUNDS = Number(process.env.BENCH_PENDING_ROUNDS ?? 11);
  const samples = { small: { create: [], status: [] }, large: { create: [], status: [] } };
  const createRound = async (name, record) => {
    const size = sizes[name];
    const started = performance.now();
    for (let i = 0; i < CREATES; i++) await create(size.authorizer);
    size.created += CREATES;
    if (record) samples[name].create.push((performance.now() - started) / CREATES);
  };
  const statusSlice = async (name, record) => {
    const size = sizes[name];
    // Status reads cycle over the same number of most recent authorizations at both sizes (those a
    // relying party polls): cycling over all 100,000 would measure CPU cache misses (each read a
    // cold record), not how the store scales (when this was written: 5 µs on 2,000 of 102,000
    // records, 14 µs when cycling over all of them, on the same store).
    const recent = Math.min(HOT_SET, size.pendingIds.length);
    const last = size.pendingIds.length - 1;
    const started = performance.now();
    for (let i = 0; i < STATUS_READS; i++) await size.authorizer.getStatus('bench', size.pendingIds[last - (i % recent)]);
    if (record) samples[name].status.push((performance.now() - started) / STATUS_READS);
  };
  // Warm-up rounds (not recorded: creates keep getting faster for a few thousand), then measured
  // ones; the creates add to the population.
  const WARMUP_ROUNDS = 4;
  for (let r = 0; r < WARMUP_ROUNDS + ROUNDS; r++) {
    const record = r >= WARMUP_ROUNDS;
    const order = r % 2 === 0 ? ['small', 'large'] : ['large', 'small'];
    for (const name of order) await createRound(name, record);
    for (let k = 0; k < STATUS_SLICES; k++) for (const name of k % 2 === 0 ? order : [...order].reverse()) await statusSlice(name, record);
  }
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const summary = (name) => ({
    pending: sizes[name].pendingIds.length + sizes[name].created,
    createMs: +median(samples[name].create).toFixed(3),
    statusMs: +median(samples[name].status).toFixed(4),
  });
  // Ratios are taken within each round (creates) or pair (status reads), both sizes measured back
  // to back, and their median reported: a drift over the run (load, late JIT) moves both alike.
  const ratios = (what) => samples.large[what].map((ms, i) => +(ms / samples.small[what][i]).toFixed(2));
  const pairedRatio = (what) => median(ratios(what));
  const small = summary('small');
  const large = summary('large');
  for (const size of Object.values(sizes)) await size.authorizer.close();

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
    latency: {
      small,
      large,
      createLargeVsSmall: pairedRatio('create'),
      statusLargeVsSmall: pairedRatio('status'),
      // Per round (creates) and per pair (status reads), to judge the noise the medians were taken over.
      createLargeVsSmallByRound: ratios('create'),
      statusLargeVsSmallByPair: ratios('status'),
      rounds: ROUNDS,
      createsPerRound: CREATES,
      statusPairsPerRound: STATUS_SLICES,
      statusReadsPerSlice: STATUS_READS,
    },
    exactHeap: typeof globalThis.gc === 'function',
  };
}

if (isMain(import.meta.url)) printJson(await run());
