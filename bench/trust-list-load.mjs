#!/usr/bin/env node
// Trusted lists (@vp-authorizer/trust-lists): the cost of loading and verifying the real EU LoTL
// (≈470 kB, ≈150 certificates, RSA-SHA512 XMLDSig with exclusive C14N) and the heap it keeps, and
// the cost of one trust decision against indexes of 300 to 300,000 anchors, by key identifier and by
// name (it must not grow with the number of anchors). The `trustLists` kind of run.mjs; alone, after a build:
//   node --expose-gc bench/trust-list-load.mjs [path to eu-lotl.xml]
//   BENCH_LOTL_LOADS (10), BENCH_LOOKUPS (100000 per size and round), BENCH_ROUNDS (7)
import { createHash, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
  // identifier (the name lookup only for anchors without one), then type, status and freshness of
  // the few hits; and the fallback by name alone, for a top without an authority key identifier.
  const LOOKUPS = Number(process.env.BENCH_LOOKUPS ?? 100_000);
  const keyId = (i) => createHash('sha1').update(`key ${i}`).digest('hex');
  const certificate = (i) => ({ der: new Uint8Array(0), pem: `pem ${i}`, subject: `CN=Issuer ${i},C=UT`, subjectKeyId: keyId(i), sha256: String(i), notBefore: 0, notAfter: Number.MAX_SAFE_INTEGER });
  // All indexes built first, then measured in interleaved rounds (median per size and lookup): a
  // neighbour's burst of work on a shared machine falls on every size alike. Process CPU time is
  // reported beside wall time: on a loaded machine the wall clock also counts time not scheduled.
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
  const types = new Set([SERVICE_TYPES.pidIssuance]);
  const top = (k, byKey) => ({ ...(byKey ? { authorityKeyId: keyId(k) } : {}), names: [`CN=Issuer ${k},C=UT`, 'CN=Leaf,C=UT'] });
  const sizes = [300, 3_000, 30_000, 300_000].map((anchors) => {
    const services = Array.from({ length: anchors }, (_, i) => ({ serviceType: SERVICE_TYPES.pidIssuance, provider: `P${i}`, name: 'PID', certificates: [certificate(i)], statuses: [{ status: 'http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/granted', from: 0 }] }));
    const index = new AnchorIndex([{ source: 'synthetic', content: { kind: 'etsi-tl', listType: 'x', issuedAt: 0, services, pointers: [], signer: certificate(-1) } }]);
    // The same work at every size: 300 issuers present, in a scrambled order. Their anchors spread
    // evenly over the index (the goal rows); or the 300 built first, neighbours in memory, which
    // separates memory locality from anything that grows with the index.
    const order = Array.from({ length: 1024 }, (_, i) => (i * 7919) % 300);
    const spread = order.map((j) => j * Math.floor(anchors / 300));
    const first300 = order;
    const lookups = {
      keyId: spread.map((k) => top(k, true)),
      name: spread.map((k) => top(k, false)),
      keyIdFirst300: first300.map((k) => top(k, true)),
    };
    return { anchors, index, lookups, samples: { keyId: { cpu: [], wall: [] }, name: { cpu: [], wall: [] }, keyIdFirst300: { cpu: [], wall: [] } } };
  });
  gc();
  gc();
  let hits = 0;
  const kinds = ['keyId', 'name', 'keyIdFirst300'];
  for (let round = 0; round <= ROUNDS; round++) {
    for (const size of round % 2 === 0 ? sizes : [...sizes].reverse()) {
      for (const kind of round % 2 === 0 ? kinds : [...kinds].reverse()) {
        const tops = size.lookups[kind];
        const cpu = process.cpuUsage();
        const t = performance.now();
        for (let i = 0; i < LOOKUPS; i++) hits += size.index.find(tops[i & 1023], types, 1).anchors.length;
        const wall = performance.now() - t;
        const used = process.cpuUsage(cpu);
        // Round 0 warms up.
        if (round === 0) continue;
        size.samples[kind].wall.push((wall * 1e6) / LOOKUPS);
        size.samples[kind].cpu.push(((used.user + used.system) * 1e3) / LOOKUPS);
      }
    }
  }
  if (hits !== (ROUNDS + 1) * LOOKUPS * sizes.length * kinds.length) throw new Error(`a lookup missed (${hits} hits)`);
  const row = (kind) => sizes.map((s) => ({ anchors: s.anchors, nsPerDecision: Math.round(median(s.samples[kind].cpu)), wallNsPerDecision: Math.round(median(s.samples[kind].wall)) }));
  const growth = (rows) => Number((rows.at(-1).nsPerDecision / rows[0].nsPerDecision).toFixed(2));
  const decisions = row('keyId');
  const byName = row('name');
  const first300 = row('keyIdFirst300');
  return {
    lotl: { file: path, bytes: bytes.byteLength, pointers: 43, firstLoadMs: Math.round(first.wall), firstLoadCpuMs: Math.round(first.cpu), medianLoadMs: Math.round(median(times.map((t) => t.wall))), medianLoadCpuMs: Math.round(median(times.map((t) => t.cpu))), loads: LOADS, retainedHeapBytesPerList: retainedBytes, kept: kept.length },
    // CPU ns per decision (median of rounds): by authority key identifier, the goal row.
    decisions,
    decisionGrowth300kVs300: growth(decisions),
    // The fallback by name (a top without an authority key identifier).
    decisionsByName: byName,
    decisionGrowthByName300kVs300: growth(byName),
    // The same 300 anchors looked up at every size: growth left here is the larger map itself.
    decisionsFirst300: first300,
    decisionGrowthFirst300: growth(first300),
  };
}

if (isMain(import.meta.url)) printJson(await run());
