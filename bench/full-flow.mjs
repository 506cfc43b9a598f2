#!/usr/bin/env node
// Full flow server CPU, per adapter: create → request object → encrypted SD-JWT VC + KB-JWT
// (direct_post.jwt) verified by @vp-authorizer/local → response code → resolve. The server runs
// in a child process and reports its own CPU time. Compared in the same run with
//   - the floor (lib/floor.mjs): the same cryptography with node:crypto behind the same number of
//     plain round trips on the same framework — goal: server CPU per flow ≤ 1.33× the floor;
//   - a hand-built peer (peer/server.mjs, node:http) — goal: ≥ 1.2× its flows per CPU second.
// All three are driven by the same client, the bench wallet (lib/bench-wallet.mjs), from this
// process: the same work per flow against each, so each server waits as long between requests.
// With two cores or more, servers run on core 0 and this process on core 1, and enough flows run
// at once that the server is busy most of the time (serverCpuShare near 1): an idle core makes the
// next request cost several times more CPU (bench/wakeup-cost.mjs measures it), which would
// otherwise favour whichever server is driven by the faster client.
//   BENCH_FLOW_SECONDS (6), BENCH_FLOW_CONCURRENCY (8), BENCH_FRAMEWORKS (all, comma-separated),
//   BENCH_FLOW_PREVIOUS (1): also measure the method used until the bench wallet (0 skips it)
import { FRAMEWORKS } from './lib/frameworks.mjs';
import { createBenchWallet, issueBenchCredential } from './lib/bench-wallet.mjs';
import { floorFlow, lightFloorFlow, measureFlows, oursFlow, peerFlow, testWalletOursFlow, testWalletPeerFlow, walletPayload } from './lib/flows.mjs';
import { isMain, printJson } from './lib/main.mjs';
import { CLIENT_CPU, SERVER_CPU, canPin, pinThisProcess } from './lib/pin.mjs';
import { startServerProcess } from './lib/server-process.mjs';
import { PID_VCT } from './lib/constants.mjs';

const ratio = (a, b) => +(a / b).toFixed(2);

export async function run({
  seconds = Number(process.env.BENCH_FLOW_SECONDS ?? 6),
  concurrency = Number(process.env.BENCH_FLOW_CONCURRENCY ?? 8),
  frameworks = (process.env.BENCH_FRAMEWORKS ?? FRAMEWORKS.join(',')).split(','),
  previous = process.env.BENCH_FLOW_PREVIOUS !== '0',
} = {}) {
  const credential = await issueBenchCredential({ vct: PID_VCT, claims: { given_name: 'Erika', family_name: 'Mustermann' } });
  const issuerRootPem = credential.issuer.rootCertificatePem;
  const pinned = canPin();
  const options = { seconds, concurrency };
  // Each server has its own request-signing root: the bench wallet trusts the one it is pointed at.
  const walletFor = (server) => createBenchWallet({ credential, verifierTrustAnchors: [server.info.trustAnchor] });
  // The bench wallet's measurements, on separate cores when the machine allows.
  const measure = async (spec, flowOf) => {
    const server = await startServerProcess(spec, pinned ? { cpu: SERVER_CPU } : {});
    const restore = pinned ? pinThisProcess(CLIENT_CPU) : () => {};
    try {
      return await measureFlows(server, flowOf(server), options);
    } finally {
      restore();
      await server.close();
    }
  };
  // The previous method, as it was: unpinned, 4 concurrent flows, the real test wallet for ours
  // and the peer, a light client for the floor.
  const previousOptions = { seconds, concurrency: 4 };
  const measurePrevious = async (spec, flowOf) => {
    const server = await startServerProcess(spec);
    try {
      return await measureFlows(server, await flowOf(server), previousOptions);
    } finally {
      await server.close();
    }
  };

  const rows = [];
  for (const framework of frameworks) {
    const ours = await measure({ kind: 'ours', framework, clients: 'local', issuerRootPem }, (s) => oursFlow(s.info, walletFor(s)));
    const floor = await measure({ kind: 'floor', framework, issuerRootPem }, (s) => floorFlow(s.info, walletFor(s)));
    const row = { framework, ours, floor, cpuVsFloor: ratio(ours.serverCpuMsPerFlow, floor.serverCpuMsPerFlow) };
    console.error(`full flow ${framework}: ${ours.serverCpuMsPerFlow} ms CPU/flow (busy ${ours.serverCpuShare}), floor ${floor.serverCpuMsPerFlow} ms (busy ${floor.serverCpuShare}) → ${row.cpuVsFloor}×`);
    if (previous) {
      let payload;
      const oursPrevious = await measurePrevious({ kind: 'ours', framework, clients: 'local', issuerRootPem }, async (s) => {
        payload = await walletPayload(s.info, credential.testWallet);
        return testWalletOursFlow(s.info, credential.testWallet);
      });
      const floorPrevious = await measurePrevious({ kind: 'floor', framework, issuerRootPem, light: true }, (s) => lightFloorFlow(s.info, payload));
      row.previous = { ours: oursPrevious, floor: floorPrevious, cpuVsFloor: ratio(oursPrevious.serverCpuMsPerFlow, floorPrevious.serverCpuMsPerFlow) };
      console.error(`  previous method: ${oursPrevious.serverCpuMsPerFlow} ms, floor ${floorPrevious.serverCpuMsPerFlow} ms → ${row.previous.cpuVsFloor}×`);
    }
    rows.push(row);
  }
  // Our CPU per flow on plain node:http is the fetch handler's (the peer uses node:http too);
  // Express as the most common host is reported beside it.
  const compare = (framework, pick) => {
    const row = rows.find((r) => r.framework === framework);
    return (peerResult) => (row && pick(row) ? ratio(peerResult.serverCpuMsPerFlow, pick(row).ours.serverCpuMsPerFlow) : null);
  };
  let peer = null;
  try {
    const result = await measure({ kind: 'peer', issuerRootPem }, (s) => peerFlow(s.info, walletFor(s)));
    peer = { ...result, oursVsPeerFetch: compare('fetch', (r) => r)(result), oursVsPeerExpress: compare('express', (r) => r)(result) };
    console.error(`peer: ${result.serverCpuMsPerFlow} ms CPU/flow (busy ${result.serverCpuShare})`);
    if (previous) {
      const old = await measurePrevious({ kind: 'peer', issuerRootPem }, (s) => testWalletPeerFlow(s.info, credential.testWallet));
      peer.previous = { ...old, oursVsPeerFetch: compare('fetch', (r) => r.previous)(old), oursVsPeerExpress: compare('express', (r) => r.previous)(old) };
      console.error(`  previous method: peer ${old.serverCpuMsPerFlow} ms CPU/flow`);
    }
  } catch (error) {
    peer = { error: String(error?.message ?? error) };
    console.error(`peer failed: ${peer.error}`);
  }
  return { seconds, concurrency, pinned, client: 'bench wallet (bench/lib/bench-wallet.mjs)', rows, peer };
}

if (isMain(import.meta.url)) printJson(await run());
