#!/usr/bin/env node
// Full flow server CPU, per adapter: create → request object → encrypted SD-JWT VC + KB-JWT
// (direct_post.jwt) verified by @vp-authorizer/local → response code → resolve. The server runs
// in a child process and reports its own CPU time; the test wallet runs here. Compared in the
// same run with
//   - the floor (lib/floor.mjs): the same cryptography with node:crypto behind the same number of
//     plain round trips on the same framework — goal: server CPU per flow ≤ 1.33× the floor;
//   - a hand-built peer (peer/server.mjs, node:http) — goal: ≥ 1.2× its flows per CPU second.
//   BENCH_FLOW_SECONDS (6), BENCH_FLOW_CONCURRENCY (4), BENCH_FRAMEWORKS (all, comma-separated)
import { FRAMEWORKS } from './lib/frameworks.mjs';
import { floorFlow, measureFlows, oursFlow, peerFlow, walletPayload } from './lib/flows.mjs';
import { isMain, printJson } from './lib/main.mjs';
import { startServerProcess } from './lib/server-process.mjs';
import { PID_VCT } from './lib/constants.mjs';

export async function run({ seconds = Number(process.env.BENCH_FLOW_SECONDS ?? 6), concurrency = Number(process.env.BENCH_FLOW_CONCURRENCY ?? 4), frameworks = (process.env.BENCH_FRAMEWORKS ?? FRAMEWORKS.join(',')).split(',') } = {}) {
  const { allowInsecureUrlsForTests, createTestIssuer, createTestWallet } = await import('@vp-authorizer/testing');
  allowInsecureUrlsForTests();
  const issuer = await createTestIssuer({ commonName: 'bench issuer' });
  const wallet = await createTestWallet();
  await wallet.addSdJwtVc(issuer, { vct: PID_VCT, claims: { given_name: 'Erika', family_name: 'Mustermann' } });
  const options = { seconds, concurrency };
  const rows = [];
  let payload;
  for (const framework of frameworks) {
    const ours = await startServerProcess({ kind: 'ours', framework, clients: 'local', issuerRootPem: issuer.rootCertificatePem });
    const oursResult = await measureFlows(ours, oursFlow(ours.info, wallet), options);
    payload ??= await walletPayload(ours.info, wallet);
    await ours.close();
    const floor = await startServerProcess({ kind: 'floor', framework, issuerRootPem: issuer.rootCertificatePem });
    const floorResult = await measureFlows(floor, floorFlow(floor.info, payload), options);
    await floor.close();
    const row = { framework, ours: oursResult, floor: floorResult, cpuVsFloor: +(oursResult.serverCpuMsPerFlow / floorResult.serverCpuMsPerFlow).toFixed(2) };
    console.error(`full flow ${framework}: ${oursResult.serverCpuMsPerFlow} ms CPU/flow, floor ${floorResult.serverCpuMsPerFlow} ms → ${row.cpuVsFloor}×`);
    rows.push(row);
  }
  let peer = null;
  try {
    const server = await startServerProcess({ kind: 'peer', issuerRootPem: issuer.rootCertificatePem });
    const result = await measureFlows(server, peerFlow(server.info, wallet), options);
    await server.close();
    // Our CPU per flow on plain node:http is the fetch handler's (the peer uses node:http too);
    // Express as the most common host is reported beside it.
    const compare = (framework) => rows.find((r) => r.framework === framework);
    const vs = (r) => (r ? +(result.serverCpuMsPerFlow / r.ours.serverCpuMsPerFlow).toFixed(2) : null);
    peer = { ...result, oursVsPeerFetch: vs(compare('fetch')), oursVsPeerExpress: vs(compare('express')) };
    console.error(`peer: ${result.serverCpuMsPerFlow} ms CPU/flow`);
  } catch (error) {
    peer = { error: String(error?.message ?? error) };
    console.error(`peer failed: ${peer.error}`);
  }
  return { seconds, concurrency, rows, peer };
}

if (isMain(import.meta.url)) printJson(await run());
