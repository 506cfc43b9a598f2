#!/usr/bin/env node
// Where the Fastify adapter's time per request goes, under wrk: GET status and POST resolve (an
// unknown code) answered at five depths in one server process (lib/fastify-layers.mjs) — the
// framework's trivial route, the same checks written by hand in a route, the adapter's plumbing
// with a fixed answer, the plumbing with authorizer.handle(), and the plugin itself. Server CPU
// per request (user + system, process.cpuUsage around each wrk run over the requests it
// completed), median over interleaved rounds; each layer's cost is its depth minus the one below.
// A tool for finding per-request overhead, not part of run.mjs. Needs wrk.
//   node bench/tools/http-layer-cost.mjs [seconds=2] [rounds=5]
import { cpus } from 'node:os';
import { API_KEY } from '../lib/constants.mjs';
import { median } from '../lib/measure.mjs';
import { startServerProcess } from '../lib/server-process.mjs';
import { hasTool, missingTools, wrk } from '../lib/tools.mjs';

const seconds = Number(process.argv[2] ?? 2);
const rounds = Number(process.argv[3] ?? 5);
const missing = missingTools('wrk');
if (missing) {
  console.error(`skipped: ${missing}`);
  process.exit(0);
}
const pin = hasTool('taskset') && cpus().length >= 2;
const RESOLVE = { method: 'POST', body: '{"response_code":"unknown-code-0000000000"}', headers: { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` } };
const STATUS = { method: 'GET', headers: { authorization: `Bearer ${API_KEY}` } };
const DEPTHS = ['bare', 'checked', 'plumbing', 'handle', 'authz'];

const server = await startServerProcess({ kind: 'fastify-layers' }, pin ? { cpu: 0 } : {});
const { origin, statusPath } = server.info;
const pathOf = (depth, route) => {
  if (depth === 'bare') return route === 'get' ? '/bare/status' : '/bare/resolve';
  return `/${depth}${route === 'get' ? statusPath : '/openid4/vp/v1_0/response-code/resolve'}`;
};
const cells = DEPTHS.flatMap((depth) => ['get', 'post'].map((route) => ({ depth, route, url: `${origin}${pathOf(depth, route)}`, request: route === 'get' ? STATUS : RESOLVE })));
const samples = new Map(cells.map((cell) => [cell, []]));
/** One request as wrk sends it: status and body. */
async function answer(cell) {
  const response = await fetch(cell.url, { method: cell.request.method, headers: cell.request.headers, body: cell.request.body });
  return { status: response.status, body: await response.text() };
}
try {
  // Wrong answers would make the figures meaningless: every depth answers 200 to GET status and
  // 404 to the unknown code, and every depth but /bare with the plugin's very bytes.
  for (const cell of cells) {
    const got = await answer(cell);
    const plugin = await answer(cells.find((c) => c.depth === 'authz' && c.route === cell.route));
    const status = cell.route === 'get' ? 200 : 404;
    if (got.status !== status || (cell.depth !== 'bare' && got.body !== plugin.body)) {
      throw new Error(`${cell.depth} ${cell.route}: answered ${got.status} ${got.body}, expected ${status}${cell.depth === 'bare' ? '' : ` ${plugin.body}`}`);
    }
  }
  for (let round = -1; round < rounds; round++) {
    const order = round % 2 ? [...cells].reverse() : cells;
    for (const cell of order) {
      const before = await server.cpuMicros();
      const result = await wrk(cell.url, { request: cell.request, connections: 16, seconds, ...(pin ? { cpu: 1 } : {}) });
      const cpu = (await server.cpuMicros()) - before;
      // Under load too: no socket errors, no 2xx where a refusal is due or the reverse (wrk counts only those).
      const wrong = cell.route === 'get' ? result.non2xx : result.requests - result.non2xx;
      if (wrong > 0 || result.requests === 0 || result.errors) throw new Error(`${cell.depth} ${cell.route}: ${wrong} unexpected answers of ${result.requests}${result.errors ? `, ${result.errors}` : ''}`);
      if (round >= 0) samples.get(cell).push(cpu / result.requests); // round -1 warms up
    }
  }
} finally {
  await server.close();
}
const rows = {};
for (const [cell, values] of samples) (rows[cell.route] ??= {})[cell.depth] = +median(values).toFixed(1);
console.log(`µs of server CPU per request (median of ${rounds} rounds of ${seconds} s, wrk 16 connections${pin ? ', server and wrk pinned' : ''})`);
for (const [route, row] of Object.entries(rows)) {
  const step = (a, b) => `${(row[a] - row[b] >= 0 ? '+' : '')}${(row[a] - row[b]).toFixed(1)}`;
  console.log(`${route === 'get' ? 'GET status  ' : 'POST resolve'}  ${DEPTHS.map((d) => `${d} ${row[d]}`).join('  ')}`);
  console.log(`              checks by hand ${step('checked', 'bare')}, plumbing ${step('plumbing', 'bare')}, handle() ${step('handle', 'plumbing')}, serve() and the plugin ${step('authz', 'handle')}; bare/authz ${(row.bare / row.authz).toFixed(2)}`);
}
