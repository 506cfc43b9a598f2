#!/usr/bin/env node
// Trusted lists (@vp-authorizer/trust-lists): the cost of loading and verifying the real EU LoTL
// (≈470 kB, ≈150 certificates, RSA-SHA512 XMLDSig with exclusive C14N) and the heap it keeps, and
// the cost of one trust decision against indexes of 300 to 300,000 anchors, by key identifier and by
// name (it must not grow with the number of anchors). The `trustLists` kind of run.mjs; alone, after a build:
//   node --expose-gc bench/trust-list-load.mjs [path to eu-lotl.xml]
//   BENCH_LOTL_LOADS (10), BENCH_LOOKUPS (100000 per size and round), BENCH_ROUNDS (7),
//   BENCH_FLOOR_OBJECTS (1), BUILDS=label=<dir>,… (saved AnchorIndex builds measured beside ours)
//
// The decision's goal. A decision at 300,000 anchors against one at 300 (`decisionGrowth300kVs300`)
// also counts the memory hierarchy: the same 300 issuers spread over a heap of 300,000 anchors touch
// pages and cache lines no longer resident (TLB and cache misses), which plain objects pay as well.
// On this 2-core VM the memory floor (memoryFloor below: the decision's own map lookups and reads
// on plain records, nothing of ours, in the same rounds) grows 1.3–2.5× over that range by itself,
// so an absolute bound on that ratio measures the machine. The goal is therefore the decision's
// growth over the floor's growth, per round, median (`decisionGrowthOverFloorGrowth` ≤ 1.25×): a
// lookup that scanned, or whose work grew with the index, would grow far beyond plain objects.
// `decisionAddedOverFloorAdded` (the ns a decision adds from 300 to 300,000 anchors over those the
// floor adds) is informative: a ratio of two differences, it swings 1.2–2× between runs.
import { createHash, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMain, printJson } from './lib/main.mjs';

/** The public test data folder beside the clone or one of its parents (as the package's tests find it). */
function lotlPath() {
  if (process.argv[2] && isMain(import.meta.url)) return process.argv[2];
  for (let at = fileURLToPath(new URL('.', import.meta.url)); dirname(at) !== at; at = dirname(at)) {
    const candidate = join(dirname(at), 'shared', 'testdata', 'eu-lotl.xml');
    if (existsSync(candidate)) return candidate;
  }
  throw new Error('eu-lotl.xml not found: pass its path as the first argument');
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const gc = () => globalThis.gc?.();

export async function run() {
  const { trustLists, AnchorIndex, SERVICE_TYPES } = await import('@vp-authorizer/trust-lists');
  const path = lotlPath();
  const bytes = readFileSync(path);
  const signerBase64 = /<ds:X509Certificate>([^<]+)</.exec(bytes.toString('utf8'))[1];
  const signerPem = new X509Certificate(Buffer.from(signerBase64, 'base64')).toString();
  // The list's own date decides its freshness: pin the clock inside its validity.
  const clock = { now: () => Date.parse('2026-05-01T00:00:00Z') };
  const LOADS = Number(process.env.BENCH_LOTL_LOADS ?? 10);

  // A LoTL alone (no pointers followed): territories filter every national list out.
  const load = async () => {
    const lists = trustLists({ sources: [`lotl:${path}`], signers: [signerPem], clock, territories: ['ZZ'] });
    await lists.ready();
    if (lists.status()[0].state !== 'ready') throw new Error(`the LoTL did not load: ${JSON.stringify(lists.status()[0])}`);
    lists.close();
    return lists;
  };
  // Wall time, and the process's CPU time: on a shared machine the wall clock also counts the time
  // other work had the cores.
  const timed = async () => {
    const cpu = process.cpuUsage();
    const t = performance.now();
    await load();
    const used = process.cpuUsage(cpu);
    return { wall: performance.now() - t, cpu: (used.user + used.system) / 1000 };
  };
  const first = await timed();
  const times = [];
  for (let i = 0; i < LOADS; i++) times.push(await timed());
  // What loaded lists keep: several instances held at once, the heap difference divided among them.
  const KEEP = 5;
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept = [];
  for (let i = 0; i < KEEP; i++) kept.push(await load());
  gc();
  gc();
  const retainedBytes = Math.round((process.memoryUsage().heapUsed - before) / KEEP);

  // One decision: the top's authority key identifier looked up among anchors by subject key
  // identifier (its issuer and subject names only when that finds nothing), then type, status and
  // freshness of the few hits; and by name alone, for a top without an authority key identifier.
  const LOOKUPS = Number(process.env.BENCH_LOOKUPS ?? 100_000);
  const keyId = (i) => createHash('sha1').update(`key ${i}`).digest('hex');
  const subject = (i) => `CN=Issuer ${i},C=UT`;
  const certificate = (i) => ({ der: new Uint8Array(0), pem: `pem ${i}`, subject: subject(i), subjectKeyId: keyId(i), sha256: String(i), notBefore: 0, notAfter: Number.MAX_SAFE_INTEGER });
  // `BUILDS=label=<dir>,…` (saved with `node bench/lib/ab-builds.mjs save <dir>`) adds the decision
  // rows of each saved AnchorIndex over the same services, in the same interleaved rounds.
  const builds = [['ours', AnchorIndex]];
  for (const [label, dir] of (process.env.BUILDS ?? '').split(',').filter(Boolean).map((entry) => entry.split('='))) {
    builds.push([label, (await import(pathToFileURL(join(resolve(dir), 'node_modules/@vp-authorizer/trust-lists/dist/index.js')).href)).AnchorIndex]);
  }
  // All indexes built first, then measured in interleaved rounds (median per size and lookup): a
  // neighbour's burst of work on a shared machine falls on every size alike. Process CPU time is
  // reported beside wall time: on a loaded machine the wall clock also counts time not scheduled.
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
  const types = new Set([SERVICE_TYPES.pidIssuance]);
  // Shaped as the package's chainTop builds it: every field present, in one order.
  const top = (k, byKey) => ({ authorityKeyId: byKey ? keyId(k) : undefined, subjectKeyId: undefined, names: [subject(k), 'CN=Leaf,C=UT'] });
  const sizes = [300, 3_000, 30_000, 300_000].map((anchors) => {
    const services = Array.from({ length: anchors }, (_, i) => ({ serviceType: SERVICE_TYPES.pidIssuance, provider: `P${i}`, name: 'PID', certificates: [certificate(i)], statuses: [{ status: 'http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/granted', from: 0 }] }));
    const lists = [{ source: 'synthetic', content: { kind: 'etsi-tl', listType: 'x', issuedAt: 0, services, pointers: [], signer: certificate(-1) } }];
    const indexes = Object.fromEntries(builds.map(([label, Index]) => [label, new Index(lists)]));
    // The same work at every size: 300 issuers present, in a scrambled order. Their anchors spread
    // evenly over the index (the goal rows); or the 300 built first, neighbours in memory, which
    // separates memory locality from anything that grows with the index.
    const order = Array.from({ length: 1024 }, (_, i) => (i * 7919) % 300);
    const spread = order.map((j) => j * Math.floor(anchors / 300));
    const lookups = { keyId: spread.map((k) => top(k, true)), name: spread.map((k) => top(k, false)), keyIdFirst300: order.map((k) => top(k, true)) };
    return { anchors, indexes, lookups, floor: memoryFloor(anchors, keyId, subject), samples: {} };
  });
  // What is measured: [row, build, lookups]. The floor row runs the decision's lookups on plain objects.
  const kinds = [['decisions', 'ours', 'keyId'], ['decisionsByName', 'ours', 'name'], ['decisionsFirst300', 'ours', 'keyIdFirst300'], ['floor', undefined, 'keyId']];
  for (const [label] of builds.slice(1)) kinds.push([`decisions:${label}`, label, 'keyId'], [`decisionsByName:${label}`, label, 'name']);
  gc();
  gc();
  let hits = 0;
  for (let round = 0; round <= ROUNDS; round++) {
    for (const size of round % 2 === 0 ? sizes : [...sizes].reverse()) {
      for (const [row, build, lookup] of round % 2 === 0 ? kinds : [...kinds].reverse()) {
        const tops = size.lookups[lookup];
        const index = build === undefined ? size.floor : size.indexes[build];
        const cpu = process.cpuUsage();
        const t = performance.now();
        for (let i = 0; i < LOOKUPS; i++) hits += index.find(tops[i & 1023], types, 1).anchors.length;
        const wall = performance.now() - t;
        const used = process.cpuUsage(cpu);
        // Round 0 warms up.
        if (round === 0) continue;
        const samples = (size.samples[row] ??= { cpu: [], wall: [] });
        samples.wall.push((wall * 1e6) / LOOKUPS);
        samples.cpu.push(((used.user + used.system) * 1e3) / LOOKUPS);
      }
    }
  }
  if (hits !== (ROUNDS + 1) * LOOKUPS * sizes.length * kinds.length) throw new Error(`a lookup missed (${hits} hits)`);
  const rowOf = (kind) => sizes.map((s) => ({ anchors: s.anchors, nsPerDecision: Math.round(median(s.samples[kind].cpu)), wallNsPerDecision: Math.round(median(s.samples[kind].wall)) }));
  const growth = (rows) => Number((rows.at(-1).nsPerDecision / rows[0].nsPerDecision).toFixed(2));
  const rows = Object.fromEntries(kinds.map(([row]) => [row, rowOf(row)]));
  const { decisions, decisionsByName, decisionsFirst300, floor } = rows;
  const added = (r) => r.at(-1).nsPerDecision - r[0].nsPerDecision;
  return {
    lotl: { file: path, bytes: bytes.byteLength, pointers: 43, firstLoadMs: Math.round(first.wall), firstLoadCpuMs: Math.round(first.cpu), medianLoadMs: Math.round(median(times.map((t) => t.wall))), medianLoadCpuMs: Math.round(median(times.map((t) => t.cpu))), loads: LOADS, retainedHeapBytesPerList: retainedBytes, kept: kept.length },
    // CPU ns per decision (median of rounds): by authority key identifier, the goal row.
    decisions,
    decisionGrowth300kVs300: growth(decisions),
    // The fallback by name (a top without an authority key identifier).
    decisionsByName,
    decisionGrowthByName300kVs300: growth(decisionsByName),
    // The same 300 anchors looked up at every size: growth left here is the larger map itself.
    decisionsFirst300,
    decisionGrowthFirst300: growth(decisionsFirst300),
    // The memory floor: the decision's map lookups and loads on plain objects (see memoryFloor).
    floor,
    floorGrowth300kVs300: growth(floor),
    // The goal: per round, the decision's growth over the floor's; their median (a neighbour's burst
    // of work falls on both sides of one round).
    decisionGrowthOverFloorGrowth: overFloor(sizes[0].samples, sizes.at(-1).samples, (small, large) => large / small),
    // Informative: the ns a decision and the floor add from 300 to 300,000 anchors, and their ratio.
    addedNsAt300k: { decision: added(decisions), floor: added(floor) },
    decisionAddedOverFloorAdded: overFloor(sizes[0].samples, sizes.at(-1).samples, (small, large) => Math.max(1, large - small)),
    ...Object.fromEntries(builds.slice(1).flatMap(([label]) => [[`decisions:${label}`, rows[`decisions:${label}`]], [`decisionGrowth300kVs300:${label}`, growth(rows[`decisions:${label}`])], [`decisionsByName:${label}`, rows[`decisionsByName:${label}`]]])),
  };
}

/** Per round, `change` (smallest → largest index, in CPU ns) of a decision over the same change of the floor; their median. */
function overFloor(smallest, largest, change) {
  const of = (row, r) => change(smallest[row].cpu[r], largest[row].cpu[r]);
  return Number(median(smallest.decisions.cpu.map((_, r) => of('decisions', r) / of('floor', r))).toFixed(2));
}

/**
 * The hardware floor of one decision over `anchors` anchors: the accesses of AnchorIndex.find with
 * nothing of ours around them. Plain records, one per anchor, in two maps keyed by fresh copies of
 * the same strings, made before the index as a parsed list's are (so each hit compares key contents
 * where they lie, as ours does): by key identifier, the issuer's and the subject's names only when
 * it finds nothing, each hit an array holding the record; then `BENCH_FLOOR_OBJECTS` objects read one after the other from
 * the record (1: the record alone, what a decision of ours reads per hit). Each anchor's objects
 * and arrays are allocated together, as the index builds its entries; `BENCH_FLOOR_SCATTERED=1`
 * allocates each level of them in its own pass instead, so no two objects of one anchor share a
 * page (what a decision would pay if its reads were scattered).
 */
function memoryFloor(anchors, keyId, subject) {
  const OBJECTS = Number(process.env.BENCH_FLOOR_OBJECTS ?? 1);
  const chain = (d, next = null) => (d === 0 ? next : chain(d - 1, { next, trusted: next === null }));
  let records;
  if (process.env.BENCH_FLOOR_SCATTERED === '1') {
    records = Array.from({ length: anchors }, () => ({ next: null, trusted: true }));
    for (let d = 1; d < OBJECTS; d++) records = records.map((next) => ({ next, trusted: false }));
  }
  // The keys exist before the index, as the strings of parsed lists do (the compare reads them there).
  const keys = Array.from({ length: anchors }, (_, i) => [keyId(i), subject(i)]);
  const byKeyId = new Map();
  const byName = new Map();
  for (let i = 0; i < anchors; i++) {
    const record = records?.[i] ?? chain(OBJECTS);
    byKeyId.set(keys[i][0], [record]);
    byName.set(keys[i][1], [record]);
  }
  const read = (record, found) => {
    let at = record;
    while (at.next !== null) at = at.next;
    if (at.trusted && !found.includes(record)) found.push(record);
  };
  return {
    find(top) {
      const anchors = [];
      // As AnchorIndex: the names only when the key identifier finds nothing (every record has one here).
      const byKey = top.authorityKeyId !== undefined ? byKeyId.get(top.authorityKeyId) : undefined;
      if (byKey) for (const record of byKey) read(record, anchors);
      else for (const name of top.names) for (const record of byName.get(name) ?? []) read(record, anchors);
      return { anchors };
    },
  };
}

if (isMain(import.meta.url)) printJson(await run());
