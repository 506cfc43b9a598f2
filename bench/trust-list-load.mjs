#!/usr/bin/env node
// Trusted lists (@vp-authorizer/trust-lists): the cost of loading and verifying the real EU LoTL
// (≈470 kB, ≈150 certificates, RSA-SHA512 XMLDSig with exclusive C14N) and the heap it keeps, and
// the cost of one trust decision against indexes of 300 to 300,000 anchors (it must not grow with
// the number of anchors). The `trustLists` kind of run.mjs; alone, after a build:
//   node --expose-gc bench/trust-list-load.mjs [path to eu-lotl.xml]
//   BENCH_LOTL_LOADS (10), BENCH_LOOKUPS (100000 per size and round), BENCH_ROUNDS (7)
import { X509Certificate } from 'node:crypto';
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
  const first = performance.now();
  await load();
  const firstMs = performance.now() - first;
  const times = [];
  for (let i = 0; i < LOADS; i++) {
    const t = performance.now();
    await load();
    times.push(performance.now() - t);
  }
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

  // One decision: a map lookup by name, then type, status and freshness of the few hits.
  const LOOKUPS = Number(process.env.BENCH_LOOKUPS ?? 100_000);
  const certificate = (i) => ({ der: new Uint8Array(0), pem: `pem ${i}`, subject: `CN=Issuer ${i},C=UT`, sha256: String(i), notBefore: 0, notAfter: Number.MAX_SAFE_INTEGER });
  // All indexes built first, then measured in interleaved rounds (median per size): a neighbour's
  // burst of work on a shared machine falls on every size alike.
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
  const types = new Set([SERVICE_TYPES.pidIssuance]);
  const sizes = [300, 3_000, 30_000, 300_000].map((anchors) => {
    const services = Array.from({ length: anchors }, (_, i) => ({ serviceType: SERVICE_TYPES.pidIssuance, provider: `P${i}`, name: 'PID', certificates: [certificate(i)], statuses: [{ status: 'http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/granted', from: 0 }] }));
    const index = new AnchorIndex([{ source: 'synthetic', content: { kind: 'etsi-tl', listType: 'x', issuedAt: 0, services, pointers: [], signer: certificate(-1) } }]);
    const names = Array.from({ length: 1024 }, (_, i) => [`CN=Issuer ${(i * 7919) % anchors},C=UT`]);
    return { anchors, index, names, samples: [] };
  });
  gc();
  gc();
  let hits = 0;
  for (let round = 0; round <= ROUNDS; round++) {
    for (const size of round % 2 === 0 ? sizes : [...sizes].reverse()) {
      const t = performance.now();
      for (let i = 0; i < LOOKUPS; i++) hits += size.index.find(size.names[i & 1023], types, 1).anchors.length;
      // Round 0 warms up.
      if (round > 0) size.samples.push(((performance.now() - t) * 1e6) / LOOKUPS);
    }
  }
  if (hits === 0) throw new Error('no lookup hit');
  const decisions = sizes.map((s) => ({ anchors: s.anchors, nsPerDecision: Math.round(median(s.samples)) }));
  return {
    lotl: { file: path, bytes: bytes.byteLength, pointers: 43, firstLoadMs: Math.round(firstMs), medianLoadMs: Math.round(median(times)), loads: LOADS, retainedHeapBytesPerList: retainedBytes, kept: kept.length },
    decisions,
    decisionGrowth300kVs300: Number((decisions.at(-1).nsPerDecision / decisions[0].nsPerDecision).toFixed(2)),
  };
}

if (isMain(import.meta.url)) printJson(await run());
