#!/usr/bin/env node
// Full flow server CPU, per adapter: create → request object → encrypted SD-JWT VC + KB-JWT
// (direct_post.jwt) verified by @vp-authorizer/local → response code → resolve. The server runs
// in a child process and reports its own CPU time. Compared in the same run with
//   - the floor (lib/floor.mjs): the same cryptography with node:crypto behind the same number of
//     plain round trips on the same framework — goal: server CPU per flow ≤ 1.33× the floor (the
//     median of the ratios of slices run next to each other; the pooled ratio is reported beside it);
//   - a hand-built peer (peer/server.mjs, node:http) — goal: ≥ 1.2× its flows per CPU second.
// All of them are driven by the same client, the bench wallet (lib/bench-wallet.mjs), from this
// process: the same work per flow against each, so each server waits as long between requests.
// With two cores or more, servers run on core 0 and this process on core 1, and enough flows run
// at once that the server is busy most of the time (serverCpuShare near 1): an idle core makes the
// next request cost several times more CPU (bench/wakeup-cost.mjs measures it), which would
// otherwise favour whichever server is driven by the faster client. Servers are measured in
// rotations, BENCH_FLOW_ROUNDS slices each in turn, so that other work on the machine falls on all
// of a rotation alike: first one rotation per framework (its authorizer, floor, pass-through and a
// peer, started together and closed before the next framework's), then all of them in one
// rotation (the method until this release). Both figures are reported.
//   BENCH_FLOW_SECONDS (12, per server), BENCH_FLOW_CONCURRENCY (8), BENCH_FLOW_ROUNDS (24),
//   BENCH_FLOW_WARMUP (2000 flows per server before any is measured),
//   BENCH_FRAMEWORKS (all, comma-separated), BENCH_FLOW_PREVIOUS (1: also measure the method
//   used until the bench wallet; 0 skips it), BENCH_FLOW_SPLIT (1: also measure each adapter with
//   pass-through clients, which splits its CPU per flow into verification and everything else;
//   0 skips it), BENCH_FLOW_ROTATION (both; framework: only the rotations per framework; all:
//   only the one rotation, in which a server waits up to 30 slices between two of its own),
//   BENCH_FLOW_MEMORY_REDUCER (0: the rotations' servers run with --no-memory-reducer; 1: with
//   V8's default, see ROTATION_NODE_OPTIONS)
import { FRAMEWORKS } from './lib/frameworks.mjs';
import { createBenchWallet, issueBenchCredential } from './lib/bench-wallet.mjs';
import { floorFlow, lightFloorFlow, measureFlows, measureInterleaved, oursFlow, peerFlow, testWalletOursFlow, testWalletPeerFlow, walletPayload } from './lib/flows.mjs';
import { isMain, printJson } from './lib/main.mjs';
import { median } from './lib/measure.mjs';
import { CLIENT_CPU, SERVER_CPU, canPin, pinThisProcess } from './lib/pin.mjs';
import { startServerProcess } from './lib/server-process.mjs';
import { PID_VCT } from './lib/constants.mjs';

const ratio = (a, b) => +(a / b).toFixed(2);
/** The ratio slice by slice: each of the server's slices against the floor's slice of the same round, next to it in time. */
const byRound = (ours, floor) => ours.serverCpuMsPerFlowByRound.map((ms, i) => ms / floor.serverCpuMsPerFlowByRound[i]);
/**
 * Against the floor: the median of the slice-by-slice ratios (the goal's figure), and the ratio of
 * the pooled slices beside it. Interference from outside (on a VM, another guest holding the host
 * core) only ever adds CPU time, in bursts shorter than a round: a burst that lands on one slice
 * moves the pooled ratio, while the median of pairs taken next to each other in time keeps to
 * the cost of the code.
 */
function againstFloor(server, floor) {
  const slices = byRound(server, floor);
  return {
    cpuVsFloor: ratio(median(slices), 1),
    cpuVsFloorPooled: ratio(server.serverCpuMsPerFlow, floor.serverCpuMsPerFlow),
    cpuVsFloorByRound: slices.map((r) => ratio(r, 1)),
  };
}
// The previous method measures as it always did: one 6-s slice per cell.
const PREVIOUS_METHOD_SECONDS = 6;

export async function run({
  seconds = Number(process.env.BENCH_FLOW_SECONDS ?? 12),
  concurrency = Number(process.env.BENCH_FLOW_CONCURRENCY ?? 8),
  rounds = Number(process.env.BENCH_FLOW_ROUNDS ?? 24),
  frameworks = (process.env.BENCH_FRAMEWORKS ?? FRAMEWORKS.join(',')).split(','),
  previous = process.env.BENCH_FLOW_PREVIOUS !== '0',
  split = process.env.BENCH_FLOW_SPLIT !== '0',
  warmup = Number(process.env.BENCH_FLOW_WARMUP ?? 2000),
  rotation = process.env.BENCH_FLOW_ROTATION || 'both',
} = {}) {
  if (!ROTATIONS.includes(rotation)) throw new Error(`BENCH_FLOW_ROTATION must be one of ${ROTATIONS.join(', ')}, not ${rotation}`);
  const credential = await issueBenchCredential({ vct: PID_VCT, claims: { given_name: 'Erika', family_name: 'Mustermann' } });
  const setup = { credential, issuerRootPem: credential.issuer.rootCertificatePem, pinned: canPin(), seconds, concurrency, rounds, warmup, split };

  // The framework rotations: each framework's servers (authorizer, floor, pass-through, peer)
  // measured together, then the next framework's; no server waits more than a few slices
  // between two of its own. The one rotation: every server of every framework started first
  // and measured in turn, the method until this release. Both are in the report.
  const byFramework = rotation === 'all' ? null : summarise(frameworks, await measureRotations(frameworks.map((f) => [f]), setup));
  const oneRotation = rotation === 'framework' ? null : summarise(frameworks, await measureRotations([frameworks], setup));
  const { rows, peer } = byFramework ?? oneRotation;
  if (previous) await measurePrevious({ rows, peer, credential, seconds: PREVIOUS_METHOD_SECONDS });
  // Servers per rotation: per framework its own (authorizer, floor, pass-through) and a peer; in one rotation all of them and a peer.
  const perFramework = split ? 3 : 2;
  const oneSize = frameworks.length * perFramework + 1;
  return {
    seconds,
    concurrency,
    rounds,
    warmup,
    pinned: setup.pinned,
    memoryReducer: ROTATION_NODE_OPTIONS.length === 0,
    rotation: byFramework ? 'framework' : 'all',
    rotationSize: byFramework ? perFramework + 1 : oneSize,
    client: 'bench wallet (bench/lib/bench-wallet.mjs)',
    rows,
    peer,
    ...(byFramework && oneRotation ? { oneRotation: { rotationSize: oneSize, ...oneRotation } } : {}),
  };
}

const ROTATIONS = ['both', 'framework', 'all'];

// A rotation leaves each server idle while the others run their slices: up to 3 s in a framework's
// rotation, up to 15 s in the rotation of sixteen. After about 5 s of idle V8's memory reducer
// runs full collections that, unlike ordinary ones, drop every hidden class no live object uses,
// and with them each optimized function that embeds one (--trace-deopt: "marking dependent code
// … reason: weak objects"): the server re-optimizes during its next slice. Whether a server is
// caught depends on when its last full collection ran, so it fell on some servers of a rotation and
// not on others. The goal is CPU per flow of a server under load, which the reducer never touches
// (it waits for idle), so the servers run without it, floor and peer alike.
const ROTATION_NODE_OPTIONS = process.env.BENCH_FLOW_MEMORY_REDUCER === '1' ? [] : ['--no-memory-reducer'];

/**
 * Each group of frameworks is one rotation: its servers (authorizer, floor, pass-through for each
 * framework, and one peer) start, warm up, are measured in turn, and close before the next group's
 * start. Resolves to the results by cell key and the peer of each rotation.
 */
async function measureRotations(groups, { credential, issuerRootPem, pinned, seconds, concurrency, rounds, warmup, split }) {
  const measured = new Map();
  const peers = [];
  for (const group of groups) {
    const cells = [];
    const start = async (key, spec, flowOf) => {
      const server = await startServerProcess(spec, { execArgv: ROTATION_NODE_OPTIONS, ...(pinned ? { cpu: SERVER_CPU } : {}) });
      cells.push({ key, server, flow: flowOf(server.info, createBenchWallet({ credential, verifierTrustAnchors: [server.info.trustAnchor] })) });
    };
    try {
      for (const framework of group) {
        await start(`ours ${framework}`, { kind: 'ours', framework, clients: 'local', issuerRootPem }, oursFlow);
        await start(`floor ${framework}`, { kind: 'floor', framework, issuerRootPem }, floorFlow);
        // The same server with pass-through clients: what the flow costs without @vp-authorizer/local.
        if (split) await start(`pass ${framework}`, { kind: 'ours', framework, clients: 'pass-through', issuerRootPem }, oursFlow);
      }
      // The peer in every rotation: each comparison with it is made within one rotation, and
      // every rotation has the same number of servers.
      try {
        await start('peer', { kind: 'peer', issuerRootPem }, peerFlow);
      } catch (error) {
        peers.push({ beside: group, error: String(error?.message ?? error) });
      }
      const restore = pinned ? pinThisProcess(CLIENT_CPU) : () => {};
      try {
        const results = await measureInterleaved(cells, { seconds, concurrency, rounds, warmup });
        for (const [i, cell] of cells.entries()) {
          if (cell.key === 'peer') peers.push({ beside: group, ...results[i] });
          else measured.set(cell.key, results[i]);
        }
      } finally {
        restore();
      }
    } finally {
      for (const { server } of cells) await server.close();
    }
  }
  return { measured, peers };
}

/** Rows against the floor per framework, and the peer: ours against the peer of the same rotation. */
function summarise(frameworks, { measured, peers }) {
  const rows = frameworks.map((framework) => {
    const [ours, floor] = [measured.get(`ours ${framework}`), measured.get(`floor ${framework}`)];
    const row = { framework, ours, floor, ...againstFloor(ours, floor) };
    const passThrough = measured.get(`pass ${framework}`);
    if (passThrough) row.passThrough = { ...passThrough, ...againstFloor(passThrough, floor) };
    console.error(`full flow ${framework}: ${ours.serverCpuMsPerFlow} ms CPU/flow (busy ${ours.serverCpuShare}), floor ${floor.serverCpuMsPerFlow} ms (busy ${floor.serverCpuShare}) → median of slices ${row.cpuVsFloor}×, pooled ${row.cpuVsFloorPooled}× (by round: ${row.cpuVsFloorByRound.join(', ')})`);
    return row;
  });
  // Our CPU per flow on plain node:http is the fetch handler's (the peer uses node:http too);
  // Express as the most common host is reported beside it.
  const peerBeside = (framework) => peers.find((p) => p.beside.includes(framework) && !p.error) ?? null;
  const measuredPeers = peers.filter((p) => !p.error);
  for (const p of peers) console.error(p.error ? `peer beside ${p.beside.join(', ')} failed: ${p.error}` : `peer beside ${p.beside.join(', ')}: ${p.serverCpuMsPerFlow} ms CPU/flow (busy ${p.serverCpuShare})`);
  if (measuredPeers.length === 0) return { rows, peer: { error: peers.find((p) => p.error)?.error ?? 'not measured' } };
  // The peer's figures shown are those of the fetch handler's rotation (both on node:http).
  const { beside, ...shown } = peerBeside('fetch') ?? measuredPeers[0];
  const peer = {
    ...shown,
    shownBeside: beside,
    oursVsPeerFetch: vsPeer(peerBeside('fetch'), rows, 'fetch', (r) => r),
    oursVsPeerExpress: vsPeer(peerBeside('express'), rows, 'express', (r) => r),
    byRotation: peers.map(({ beside: with_, error, serverCpuMsPerFlow, flowsPerSecond, serverCpuShare }) => (error ? { beside: with_, error } : { beside: with_, serverCpuMsPerFlow, flowsPerSecond, serverCpuShare })),
  };
  return { rows, peer };
}

/** Flows per server CPU second of ours on `framework` against `peerResult` (null when either is missing). */
function vsPeer(peerResult, rows, framework, pick) {
  const ours = pick(rows.find((r) => r.framework === framework) ?? {})?.ours;
  return ours && peerResult ? ratio(peerResult.serverCpuMsPerFlow, ours.serverCpuMsPerFlow) : null;
}

/**
 * The method used until the bench wallet, as it was: one server after the other, unpinned, 4
 * concurrent flows, the real test wallet driving the authorizer and the peer, a light client the
 * floor. Kept for one release, as `previous` in each row and in the peer's result.
 */
async function measurePrevious({ rows, peer, credential, seconds }) {
  const issuerRootPem = credential.issuer.rootCertificatePem;
  const { testWallet } = credential;
  const options = { seconds, concurrency: 4 };
  const measure = async (spec, flowOf) => {
    const server = await startServerProcess(spec);
    try {
      return await measureFlows(server, await flowOf(server.info), options);
    } finally {
      await server.close();
    }
  };
  for (const row of rows) {
    let payload;
    const ours = await measure({ kind: 'ours', framework: row.framework, clients: 'local', issuerRootPem }, async (info) => {
      payload = await walletPayload(info, testWallet);
      return testWalletOursFlow(info, testWallet);
    });
    const floor = await measure({ kind: 'floor', framework: row.framework, issuerRootPem, light: true }, (info) => lightFloorFlow(info, payload));
    row.previous = { ours, floor, cpuVsFloor: ratio(ours.serverCpuMsPerFlow, floor.serverCpuMsPerFlow) };
    console.error(`  previous method, ${row.framework}: ${ours.serverCpuMsPerFlow} ms, floor ${floor.serverCpuMsPerFlow} ms → ${row.previous.cpuVsFloor}×`);
  }
  if (!peer.error) {
    const old = await measure({ kind: 'peer', issuerRootPem }, (info) => testWalletPeerFlow(info, testWallet));
    peer.previous = { ...old, oursVsPeerFetch: vsPeer(old, rows, 'fetch', (r) => r.previous), oursVsPeerExpress: vsPeer(old, rows, 'express', (r) => r.previous) };
    console.error(`  previous method, peer: ${old.serverCpuMsPerFlow} ms CPU/flow`);
  }
}

if (isMain(import.meta.url)) printJson(await run());
