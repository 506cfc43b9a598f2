#!/usr/bin/env node
// What an idle gap before a request costs the server: the server CPU of the cheapest node:http
// request (a fixed JSON answer, server-child.mjs kind 'trivial') sent one at a time, with the
// client waiting a given gap between the answer and the next request. Back to back, the server's
// core stays warm; after a gap it has gone idle (caches, branch predictors, frequency and the
// scheduler's wake-up all count), and the same request costs more. This is why full-flow.mjs
// drives every server with the same client and keeps it busy: a server driven by a slower client
// would pay more per request for the same work.
//   spin  — the client busy-waits through the gap (its own core stays awake; only the server's idles)
//   sleep — the client sleeps through the gap (both cores may idle)
// Server on core 0, client on core 1 where there are two cores. BENCH_WAKEUP_REQUESTS (300 per
// cell), BENCH_WAKEUP_ROUNDS (3; the median per cell is kept), BENCH_WAKEUP_GAPS_MS (0,0.25,1,2,4,8).
import { Agent, request } from 'node:http';
import { isMain, printJson } from './lib/main.mjs';
import { CLIENT_CPU, SERVER_CPU, canPin, pinThisProcess } from './lib/pin.mjs';
import { startServerProcess } from './lib/server-process.mjs';

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function run({
  requests = Number(process.env.BENCH_WAKEUP_REQUESTS ?? 300),
  rounds = Number(process.env.BENCH_WAKEUP_ROUNDS ?? 3),
  gapsMs = (process.env.BENCH_WAKEUP_GAPS_MS ?? '0,0.25,1,2,4,8').split(',').map(Number),
} = {}) {
  const pinned = canPin();
  const server = await startServerProcess({ kind: 'trivial' }, pinned ? { cpu: SERVER_CPU } : {});
  const restore = pinned ? pinThisProcess(CLIENT_CPU) : () => {};
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const { hostname, port } = new URL(server.origin);
  const get = () =>
    new Promise((resolve, reject) => {
      const req = request({ hostname, port, path: '/', agent }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end();
    });
  const wait = {
    spin: async (ms) => {
      const until = performance.now() + ms;
      while (performance.now() < until);
    },
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
  try {
    for (let i = 0; i < 200; i++) await get(); // JIT warm-up on both sides
    const cells = new Map(); // `${mode} ${gap}` → µs per request, one per round
    for (let round = 0; round < rounds; round++) {
      for (const gap of gapsMs) {
        for (const mode of gap === 0 ? ['spin'] : ['spin', 'sleep']) {
          const before = await server.cpuMicros();
          for (let i = 0; i < requests; i++) {
            await get();
            if (gap > 0) await wait[mode](gap);
          }
          const key = `${mode} ${gap}`;
          cells.set(key, [...(cells.get(key) ?? []), ((await server.cpuMicros()) - before) / requests]);
        }
      }
    }
    const cell = (mode, gap) => (cells.has(`${mode} ${gap}`) ? +median(cells.get(`${mode} ${gap}`)).toFixed(1) : null);
    const backToBack = cell('spin', 0);
    const rows = gapsMs.map((gapMs) => ({
      gapMs,
      spinUs: cell('spin', gapMs),
      sleepUs: gapMs === 0 ? backToBack : cell('sleep', gapMs),
    }));
    for (const r of rows) {
      r.spinVsBackToBack = r.spinUs && backToBack ? +(r.spinUs / backToBack).toFixed(2) : null;
      r.sleepVsBackToBack = r.sleepUs && backToBack ? +(r.sleepUs / backToBack).toFixed(2) : null;
      console.error(`gap ${r.gapMs} ms: ${r.spinUs} µs server CPU per request (client spinning), ${r.sleepUs} µs (client sleeping)`);
    }
    return { pinned, requests, rounds, backToBackUs: backToBack, rows };
  } finally {
    agent.destroy();
    restore();
    await server.close();
  }
}

if (isMain(import.meta.url)) printJson(await run());
