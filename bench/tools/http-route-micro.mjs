#!/usr/bin/env node
// One request of GET status and POST resolve (unknown code) through the core in process: serve()
// over the Node bridge (a node:http request stand-in whose body a host parser already read) and
// authorizer.fetch(). Without HTTP in the figures, the core's share of the adapters' per-request
// cost reads to a few percent where wrk on a busy machine cannot. A tool, not part of run.mjs.
//   node bench/tools/http-route-micro.mjs [iterations=5000] [rounds=11]
//   BENCH_MICRO_TURN=1: each call after an event-loop turn (setImmediate), as in a server, where
//   promise work costs about twice what it does back to back; figures are net of the turns.
//   CORE_DISTS=base=<dir>,new=<dir>: A/B of builds of @vp-authorizer/core (dist directories that
//   resolve its dependencies, e.g. a copy inside packages/core), interleaved round by round.
import { API_KEY } from '../lib/constants.mjs';
import { passThroughAuthorizer } from '../lib/pass-through-authorizer.mjs';

const ITER = Number(process.argv[2] ?? 5000);
const ROUNDS = Number(process.argv[3] ?? 11);
const TURN = process.env.BENCH_MICRO_TURN === '1';
/** A server answers each request in an event-loop turn of its own; promise work costs more there than back to back. */
const turnThen = (run) => new Promise(setImmediate).then(run);
const builds = process.env.CORE_DISTS
  ? Object.fromEntries(process.env.CORE_DISTS.split(',').map((entry) => entry.split('=')))
  : { installed: undefined };

const cases = {};
for (const [label, dir] of Object.entries(builds)) {
  const load = (file) => import(dir ? `${dir}/${file}.js` : file === 'index' ? '@vp-authorizer/core' : '@vp-authorizer/core/http');
  const { serve, fromNodeRequest } = await load('http');
  const { authorizer, statusPath } = await passThroughAuthorizer(await load('index'));
  const resolvePath = '/openid4/vp/v1_0/response-code/resolve';
  const body = '{"response_code":"unknown-code-0000000000"}';
  const nodeRequest = (method, url, extra) => ({ method, url, rawHeaders: ['Host', '127.0.0.1:8080', 'Authorization', `Bearer ${API_KEY}`, ...extra], headers: {}, readableEnded: true, httpVersionMajor: 1 });
  cases[`${label}\0node get`] = () => serve(authorizer, fromNodeRequest(nodeRequest('GET', `/authz${statusPath}`, []), { path: statusPath }));
  cases[`${label}\0node post`] = () => serve(authorizer, fromNodeRequest(nodeRequest('POST', `/authz${resolvePath}`, ['Content-Type', 'application/json']), { path: resolvePath, hostBody: { rawBody: body } }));
  cases[`${label}\0fetch get`] = () => authorizer.fetch(new Request(`http://127.0.0.1:8080/authz${statusPath}`, { headers: { authorization: `Bearer ${API_KEY}` } }));
  cases[`${label}\0fetch post`] = () => authorizer.fetch(new Request(`http://127.0.0.1:8080/authz${resolvePath}`, { method: 'POST', body, headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' } }));
  // Wrong answers would make the timings meaningless.
  if ((await cases[`${label}\0node get`]()).response.status !== 200) throw new Error(`${label}: GET status did not answer 200`);
  if ((await cases[`${label}\0node post`]()).response.status !== 404) throw new Error(`${label}: POST resolve did not answer 404`);
}

const labels = Object.keys(builds);
const names = ['node get', 'node post', 'fetch get', 'fetch post'];
if (TURN) {
  names.unshift('turn only');
  for (const label of labels) {
    cases[`${label}\0turn only`] = () => undefined;
  }
}
const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let round = 0; round <= ROUNDS; round++) {
  for (const name of names) {
    // Alternate which build goes first; round 0 warms up.
    for (const label of round % 2 ? [...labels].reverse() : labels) {
      const run = cases[`${label}\0${name}`];
      const started = process.hrtime.bigint();
      if (TURN) for (let i = 0; i < ITER; i++) await turnThen(run);
      else for (let i = 0; i < ITER; i++) await run();
      if (round > 0) samples[`${label}\0${name}`].push(Number(process.hrtime.bigint() - started) / ITER / 1000);
    }
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// Net of the turns themselves: each round's turn-only time is taken off that round's figures.
if (TURN) for (const label of labels) for (const name of names.slice(1)) samples[`${label}\0${name}`] = samples[`${label}\0${name}`].map((t, round) => t - samples[`${label}\0turn only`][round]);
for (const name of names) {
  const cells = labels.map((label) => `${label} ${median(samples[`${label}\0${name}`]).toFixed(2).padStart(7)} µs`);
  const versus = labels.length === 2 ? `   ${labels[1]}/${labels[0]} ${(median(samples[`${labels[1]}\0${name}`]) / median(samples[`${labels[0]}\0${name}`])).toFixed(2)}` : '';
  console.log(`${name.padEnd(11)} ${cells.join('   ')}${versus}`);
}
