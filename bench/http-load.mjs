#!/usr/bin/env node
// HTTP throughput per adapter against its framework's own trivial JSON route, with wrk from a
// second process: GET the status of a pending authorization, and POST a resolve (an unknown
// code: API-key check, JSON body, an atomic consume, a 404). The bare routes live in the same
// server process as the authorizer, so each ratio compares like with like. Goal: every adapter
// ≥ 0.8× its framework on both. The server and wrk are pinned to separate cores when taskset
// is available and the machine has two or more.
//
// Each cell is measured in short slices, the adapter's and the framework's back to back (every
// other round in reverse order); the goal's figure is the median of the slice-by-slice ratios,
// the same method as the full flow's, so that a burst of other work on the machine skews one
// pair instead of a whole cell. The pooled ratio (all requests of one over all of the other) is
// kept beside it.
//   BENCH_HTTP_ROUNDS (8), BENCH_HTTP_SECONDS (1 per slice, whole seconds: wrk's unit),
//   BENCH_HTTP_CONNECTIONS (32), BENCH_FRAMEWORKS
import { cpus } from 'node:os';
import { API_KEY } from './lib/constants.mjs';
import { FRAMEWORKS } from './lib/frameworks.mjs';
import { isMain, printJson } from './lib/main.mjs';
import { median } from './lib/measure.mjs';
import { startServerProcess } from './lib/server-process.mjs';
import { hasTool, missingTools, wrk } from './lib/tools.mjs';

const RESOLVE = { method: 'POST', body: '{"response_code":"unknown-code-0000000000"}', headers: { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` } };
const STATUS = { method: 'GET', headers: { authorization: `Bearer ${API_KEY}` } };
const RESOLVE_PATH = '/authz/openid4/vp/v1_0/response-code/resolve';

export async function run({
  rounds = Number(process.env.BENCH_HTTP_ROUNDS ?? 8),
  seconds = Number(process.env.BENCH_HTTP_SECONDS ?? 1),
  connections = Number(process.env.BENCH_HTTP_CONNECTIONS ?? 32),
  frameworks = (process.env.BENCH_FRAMEWORKS ?? FRAMEWORKS.join(',')).split(','),
} = {}) {
  const missing = missingTools('wrk');
  if (missing) return { skipped: missing };
  const pin = hasTool('taskset') && cpus().length >= 2;
  const rows = [];
  for (const framework of frameworks) {
    const server = await startServerProcess({ kind: 'ours', framework, clients: 'pass-through', bareRoutes: true }, pin ? { cpu: 0 } : {});
    const { origin, statusPath } = server.info;
    const load = (path, request) => wrk(`${origin}${path}`, { request, connections, seconds, ...(pin ? { cpu: 1 } : {}) });
    const cells = {
      getStatus: { ours: [statusPath, STATUS], bare: ['/bare/status', STATUS] },
      postResolve: { ours: [RESOLVE_PATH, RESOLVE], bare: ['/bare/resolve', RESOLVE] },
    };
    // One unmeasured slice of each route first (JIT, connection pools).
    for (const cell of Object.values(cells)) for (const [path, request] of Object.values(cell)) await load(path, request);
    const slices = { getStatus: [], postResolve: [] };
    for (let round = 0; round < rounds; round++) {
      for (const [name, cell] of Object.entries(cells)) {
        const order = round % 2 ? ['ours', 'bare'] : ['bare', 'ours'];
        const pair = {};
        for (const who of order) pair[who] = await load(...cell[who]);
        slices[name].push(pair);
      }
    }
    await server.close();
    const row = { framework };
    for (const name of Object.keys(cells)) row[name] = summarise(slices[name]);
    // Wrong answers would make any throughput meaningless: status 200, resolve 404 (counted as non-2xx).
    if (row.getStatus.ours.non2xx > 0) row.getStatus.warning = `${row.getStatus.ours.non2xx} non-2xx answers to GET status`;
    if (row.postResolve.ours.non2xx < row.postResolve.ours.requests) row.postResolve.warning = 'some resolves of an unknown code were not refused';
    console.error(`http ${framework}: GET status ${row.getStatus.ratio}× (pooled ${row.getStatus.pooledRatio}×), POST resolve ${row.postResolve.ratio}× (pooled ${row.postResolve.pooledRatio}×) of the bare framework`);
    rows.push(row);
  }
  return { method: 'paired-slices', rounds, seconds, connections, pinned: pin, rows };
}

/** One cell from its pairs of slices: each side's totals, the median of the pair ratios and the pooled ratio. */
function summarise(pairs) {
  const side = (who) => {
    const all = pairs.map((pair) => pair[who]);
    const requests = all.reduce((sum, s) => sum + s.requests, 0);
    const seconds = all.reduce((sum, s) => sum + s.seconds, 0);
    return {
      rps: +(requests / seconds).toFixed(2),
      requests,
      p99: median(all.map((s) => s.p99Ms)).toFixed(2) + 'ms',
      non2xx: all.reduce((sum, s) => sum + s.non2xx, 0),
      errors: all.map((s) => s.errors).find(Boolean) ?? null,
    };
  };
  const ours = side('ours');
  const bare = side('bare');
  const byRound = pairs.map((pair) => +(pair.ours.rps / pair.bare.rps).toFixed(3));
  return { ours, bare, ratio: +median(byRound).toFixed(2), pooledRatio: +(ours.rps / bare.rps).toFixed(2), byRound };
}

if (isMain(import.meta.url)) printJson(await run());
