#!/usr/bin/env node
// HTTP throughput per adapter against its framework's own trivial JSON route, with wrk from a
// second process: GET the status of a pending authorization, and POST a resolve (an unknown
// code: API-key check, JSON body, an atomic consume, a 404). The bare routes live in the same
// server process as the authorizer, so each ratio compares like with like. Goal: every adapter
// ≥ 0.8× its framework on both. The server and wrk are pinned to separate cores when taskset
// is available and the machine has two or more.
//   BENCH_HTTP_SECONDS (4), BENCH_HTTP_CONNECTIONS (32), BENCH_HTTP_REPEAT (2), BENCH_FRAMEWORKS
import { cpus } from 'node:os';
import { API_KEY } from './lib/constants.mjs';
import { FRAMEWORKS } from './lib/frameworks.mjs';
import { isMain, printJson } from './lib/main.mjs';
import { startServerProcess } from './lib/server-process.mjs';
import { hasTool, missingTools, wrk } from './lib/tools.mjs';

const RESOLVE = { method: 'POST', body: '{"response_code":"unknown-code-0000000000"}', headers: { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` } };
const STATUS = { method: 'GET', headers: { authorization: `Bearer ${API_KEY}` } };

export async function run({
  seconds = Number(process.env.BENCH_HTTP_SECONDS ?? 4),
  connections = Number(process.env.BENCH_HTTP_CONNECTIONS ?? 32),
  repeat = Number(process.env.BENCH_HTTP_REPEAT ?? 2),
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
    // Interleaved and repeated; the best of each is kept (noise from other work only lowers a figure).
    const best = { ours: { get: null, post: null }, bare: { get: null, post: null } };
    const keep = (who, what, result) => (best[who][what] = !best[who][what] || result.rps > best[who][what].rps ? result : best[who][what]);
    for (let i = 0; i < repeat; i++) {
      keep('bare', 'get', await load('/bare/status', STATUS));
      keep('ours', 'get', await load(statusPath, STATUS));
      keep('bare', 'post', await load('/bare/resolve', RESOLVE));
      keep('ours', 'post', await load('/authz/openid4/vp/v1_0/response-code/resolve', RESOLVE));
    }
    await server.close();
    const row = {
      framework,
      getStatus: { ours: best.ours.get, bare: best.bare.get, ratio: +(best.ours.get.rps / best.bare.get.rps).toFixed(2) },
      postResolve: { ours: best.ours.post, bare: best.bare.post, ratio: +(best.ours.post.rps / best.bare.post.rps).toFixed(2) },
    };
    // Wrong answers would make any throughput meaningless: status 200, resolve 404 (counted as non-2xx).
    if (best.ours.get.non2xx > 0) row.getStatus.warning = `${best.ours.get.non2xx} non-2xx answers to GET status`;
    console.error(`http ${framework}: GET status ${row.getStatus.ratio}×, POST resolve ${row.postResolve.ratio}× of the bare framework`);
    rows.push(row);
  }
  return { seconds, connections, repeat, pinned: pin, rows };
}

if (isMain(import.meta.url)) printJson(await run());
