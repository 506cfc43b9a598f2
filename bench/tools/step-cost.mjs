#!/usr/bin/env node
// Server CPU per step of the full flow over HTTP, each step run as a batch so that its cost is
// read on its own: N creates, then the wallet fetching the N request objects, then N encrypted
// responses (prepared beforehand, so the wallet's cryptography does not sit between them), then N
// resolves. The server runs in a child process pinned to core 0 (`process.cpuUsage()` around each
// batch); run this under `taskset -c 1` to keep the wallet off that core. A tool for finding
// where a flow's cost sits, not part of run.mjs.
//
// Run (after building the packages): taskset -c 1 node bench/tools/step-cost.mjs [framework=fastify] [N=300] [rounds=3]
import { PID_QUERY, PID_VCT } from '../lib/constants.mjs';
import { startServerProcess } from '../lib/server-process.mjs';

const framework = process.argv[2] ?? 'fastify';
const N = Number(process.argv[3] ?? 300);
const ROUNDS = Number(process.argv[4] ?? 3);

const { allowInsecureUrlsForTests, createTestIssuer, createTestWallet } = await import('@vp-authorizer/testing');
allowInsecureUrlsForTests();
const issuer = await createTestIssuer({ commonName: 'bench issuer' });
const wallet = await createTestWallet();
await wallet.addSdJwtVc(issuer, { vct: PID_VCT, claims: { given_name: 'Erika', family_name: 'Mustermann' } });
const server = await startServerProcess({ kind: 'ours', framework, clients: 'local', issuerRootPem: issuer.rootCertificatePem }, { cpu: 0 });
const api = `${server.origin}/authz/openid4/vp/v1_0`;
const post = async (path, json) => {
  const response = await fetch(`${api}${path}`, { method: 'POST', headers: { authorization: `Bearer ${server.info.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(json) });
  const text = await response.text();
  if (response.status >= 400) throw new Error(`${path} → ${response.status} ${text.slice(0, 200)}`);
  return JSON.parse(text);
};
const codeOf = (redirectUri) => new URL(redirectUri).searchParams.get('response_code');

async function round() {
  const perStep = {};
  const step = async (name, fn) => {
    const before = await server.cpuMicros();
    const result = await fn();
    perStep[name] = ((await server.cpuMicros()) - before) / N / 1000;
    return result;
  };
  const created = await step('create', () => Promise.all(Array.from({ length: N }, () => post('/authorizations', { responseMode: 'direct_post.jwt', profile: 'haip', query: PID_QUERY }))));
  const requests = await step('request object', async () => {
    const out = [];
    for (const c of created) out.push(await wallet.receive(c.authorizeUrl, { verifierTrustAnchors: [server.info.trustAnchor] }));
    return out;
  });
  const prepared = [];
  for (const request of requests) prepared.push(await wallet.createResponse(request, { enc: 'A128GCM' }));
  const sent = await step('respond', async () => {
    const out = [];
    for (const p of prepared) out.push(await wallet.submit(p));
    return out;
  });
  await step('resolve', async () => {
    for (let i = 0; i < N; i++) {
      const resolved = await post('/response-code/resolve', { response_code: codeOf(sent[i].body.redirect_uri), authorization_id: created[i].authorizationId });
      if (resolved.status !== 'authorized') throw new Error(`not authorized: ${JSON.stringify(resolved).slice(0, 300)}`);
    }
  });
  return perStep;
}

await round(); // warm-up
for (let r = 1; r <= ROUNDS; r++) {
  const perStep = await round();
  const total = Object.values(perStep).reduce((a, b) => a + b, 0);
  console.log(`${framework} round ${r}: ${Object.entries(perStep).map(([k, v]) => `${k} ${v.toFixed(3)}`).join(', ')} — ${total.toFixed(3)} ms server CPU per flow`);
}
await server.close();
