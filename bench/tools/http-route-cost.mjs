#!/usr/bin/env node
// Server CPU per request of GET status and POST resolve (unknown code) through each adapter,
// beside the same framework's own trivial JSON routes in the same server process, under wrk.
// CPU per request (process.cpuUsage of the server around each wrk run, divided by the requests
// wrk completed) moves far less with other load on the machine than requests per second do,
// so it reads small changes on a busy machine. Each figure is a median over the rounds. The throughput ratio of http-load.mjs is about
// the inverse of the CPU ratio printed here when the server is CPU-bound.
// A tool for finding per-request overhead, not part of run.mjs.
//   node bench/tools/http-route-cost.mjs [frameworks=all] [seconds=2] [rounds=3]
import { cpus } from 'node:os';
import { API_KEY } from '../lib/constants.mjs';
import { FRAMEWORKS } from '../lib/frameworks.mjs';
import { startServerProcess } from '../lib/server-process.mjs';
import { hasTool, wrkScript } from '../lib/tools.mjs';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const frameworks = (process.argv[2] ?? FRAMEWORKS.join(',')).split(',');
const seconds = Number(process.argv[3] ?? 2);
const rounds = Number(process.argv[4] ?? 3);
const pin = hasTool('taskset') && cpus().length >= 2;

const RESOLVE = { method: 'POST', body: '{"response_code":"unknown-code-0000000000"}', headers: { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` } };
const STATUS = { method: 'GET', headers: { authorization: `Bearer ${API_KEY}` } };

async function wrkCount(url, request) {
  const args = ['-t1', '-c16', `-d${seconds}s`, '-s', wrkScript(request), url];
  const [cmd, argv] = pin ? ['taskset', ['-c', '1', 'wrk', ...args]] : ['wrk', args];
  const { stdout } = await promisify(execFile)(cmd, argv, { encoding: 'utf8' });
  return Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

for (const framework of frameworks) {
  const server = await startServerProcess({ kind: 'ours', framework, clients: 'pass-through', bareRoutes: true }, pin ? { cpu: 0 } : {});
  const { origin, statusPath } = server.info;
  const cells = { 'bare get': ['/bare/status', STATUS], 'ours get': [statusPath, STATUS], 'bare post': ['/bare/resolve', RESOLVE], 'ours post': ['/authz/openid4/vp/v1_0/response-code/resolve', RESOLVE] };
  const samples = Object.fromEntries(Object.keys(cells).map((k) => [k, []]));
  // One warm-up pass, then interleaved rounds.
  for (const [path, request] of Object.values(cells)) await wrkCount(`${origin}${path}`, request);
  for (let r = 0; r < rounds; r++) {
    for (const [name, [path, request]] of Object.entries(cells)) {
      const before = await server.cpuMicros();
      const count = await wrkCount(`${origin}${path}`, request);
      samples[name].push(((await server.cpuMicros()) - before) / Math.max(1, count));
    }
  }
  await server.close();
  const m = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
  // The ratio of each round (its cells ran back to back), then the median over rounds: steadier
  // than a ratio of medians when the load from other work drifts between rounds.
  const ratio = (what) => median(samples[`bare ${what}`].map((bare, i) => bare / samples[`ours ${what}`][i])).toFixed(2);
  const fmt = (x) => x.toFixed(1).padStart(6);
  console.log(`${framework.padEnd(8)} µs CPU/request  GET bare ${fmt(m['bare get'])} ours ${fmt(m['ours get'])} (bare/ours ${ratio('get')})   POST bare ${fmt(m['bare post'])} ours ${fmt(m['ours post'])} (bare/ours ${ratio('post')})`);
}
