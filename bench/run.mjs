#!/usr/bin/env node
// Every benchmark in one run (`npm run bench` builds first), then the report: results go to
// bench/results/latest.json and docs/performance.md is written from them, with the committed
// results of the base commit (bench/results/before.json) as the "before" column.
//   BENCH_ONLY=micro,http,wakeup,flow,redis,postgres,pending,stalls,dataIntegrity,annexC,signing,trustLists   run a subset (the report then shows only those)
//   BENCH_OUT=<file>                            write the results elsewhere and skip the report
//   BENCH_REPORT_ONLY=1                         rewrite docs/performance.md from bench/results/latest.json
// Each file also runs alone: node --expose-gc bench/<kind>.mjs prints its JSON.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describeMachine } from './lib/machine.mjs';
import { writeReport } from './lib/report.mjs';

// Heap figures need a full GC on demand.
if (typeof globalThis.gc !== 'function') {
  const again = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(again.status ?? 1);
}

const resultsDir = new URL('./results/', import.meta.url);
if (process.env.BENCH_REPORT_ONLY) {
  writeDoc(JSON.parse(readFileSync(new URL('latest.json', resultsDir), 'utf8')));
  process.exit(0);
}

const KINDS = {
  micro: ['in-process ratios', './micro.mjs'],
  http: ['HTTP throughput per adapter (wrk)', './http-load.mjs'],
  wakeup: ['server CPU per request after an idle gap', './wakeup-cost.mjs'],
  flow: ['full flow server CPU (floor, peer)', './full-flow.mjs'],
  redis: ['Redis (consume, two processes)', './redis.mjs'],
  postgres: ['PostgreSQL (consume and compare-and-set vs bare pg, bytes per pending, full flow vs Redis)', './postgres.mjs'],
  pending: ['pending authorizations at scale', './pending-scale.mjs'],
  stalls: ['event-loop stalls of hostile requests', './hostile-stalls.mjs'],
  dataIntegrity: ['Data Integrity credential verification vs the library', './data-integrity-verify-cost.mjs'],
  annexC: ['Annex C (org-iso-mdoc) response vs node:crypto directly', './annex-c-response-cost.mjs'],
  signing: ['request signing: SoftHSM2 token vs in-process key', './signing-latency.mjs'],
  trustLists: ['trusted lists: EU LoTL load + verify, heap, lookup over 300 to 300,000 anchors', './trust-list-load.mjs'],
};
const only = (process.env.BENCH_ONLY ?? Object.keys(KINDS).join(',')).split(',').map((k) => k.trim());
const results = { machine: describeMachine(), commit: gitHead() };
const started = Date.now();
for (const [kind, [title, file]] of Object.entries(KINDS)) {
  if (!only.includes(kind)) continue;
  console.log(`› ${title}…`);
  const t = Date.now();
  try {
    const { run } = await import(file);
    results[kind] = await run();
    if (results[kind]?.skipped) console.log(`  skipped: ${results[kind].skipped}`);
  } catch (error) {
    results[kind] = { error: String(error?.stack ?? error) };
    console.error(`  failed: ${results[kind].error}`);
  }
  console.log(`  (${Math.round((Date.now() - t) / 1000)} s)`);
}
results.durationSeconds = Math.round((Date.now() - started) / 1000);

mkdirSync(resultsDir, { recursive: true });
const out = process.env.BENCH_OUT ?? fileURLToPath(new URL('latest.json', resultsDir));
writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
console.log(`results: ${out}`);
if (!process.env.BENCH_OUT) writeDoc(results);
process.exit(0);

function writeDoc(latest) {
  const beforeFile = new URL('before.json', resultsDir);
  const before = existsSync(beforeFile) ? JSON.parse(readFileSync(beforeFile, 'utf8')) : null;
  const doc = new URL('../docs/performance.md', import.meta.url);
  writeFileSync(doc, writeReport(latest, before));
  console.log(`report: ${fileURLToPath(doc)}`);
}

function gitHead() {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', cwd: fileURLToPath(new URL('.', import.meta.url)) });
  return head.status === 0 ? head.stdout.trim() : null;
}
