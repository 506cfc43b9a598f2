#!/usr/bin/env node
// Where an Annex C (org-iso-mdoc) response's CPU goes: N responses accepted in process through
// `authorizer.submitDcApiResponse` (as bench/annex-c-response-cost.mjs measures them), with the
// V8 CPU profiler running only while they are accepted (answers are prepared first). Writes the
// profile to `PROFILE` (default annex-c.cpuprofile) and prints the top functions by self time.
// Run after a build: node bench/tools/profile-annex-c.mjs [responses=600]
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { annexCCreateBody, annexCIssuerAndWallet, ORIGIN } from '../lib/annex-c-fixture.mjs';
import { inProcessAuthorizer } from '../lib/in-process-authorizer.mjs';

const n = Number(process.argv[2] ?? 600);
const { issuer, wallet } = await annexCIssuerAndWallet();
const { authorizer } = await inProcessAuthorizer({ base: 'https://verifier.example', apiKey: 'profile-key-0123456789', instanceId: 'p', issuer });
const body = annexCCreateBody;
const answers = [];
for (let i = 0; i < n * 2; i++) {
  const created = await authorizer.createAuthorization('p', body);
  const { digitalCredentialGetResponse } = await wallet.respondAnnexC(created.digitalCredentialGetRequest, { origin: ORIGIN });
  answers.push({ id: created.authorizationId, body: { origin: ORIGIN, digitalCredentialGetResponse } });
}
const submit = async (a) => {
  const answer = await authorizer.submitDcApiResponse('p', a.id, 'dc_api', a.body);
  if (answer.status !== 'authorized') throw new Error(`expected authorized, got ${JSON.stringify(answer)}`);
};
for (const a of answers.slice(0, n)) await submit(a); // warm-up
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.start');
const start = process.cpuUsage();
for (const a of answers.slice(n)) await submit(a);
const used = process.cpuUsage(start);
const { profile } = await session.post('Profiler.stop');
writeFileSync(process.env.PROFILE ?? 'annex-c.cpuprofile', JSON.stringify(profile));
await authorizer.close();

const self = new Map();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const byName = new Map();
for (const node of profile.nodes) {
  const t = self.get(node.id) ?? 0;
  const key = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*node_modules\//, '').replace(/^.*packages\//, '')}:${node.callFrame.lineNumber + 1}`;
  byName.set(key, (byName.get(key) ?? 0) + t);
}
const total = [...byName.values()].reduce((a, b) => a + b, 0);
console.log(`${((used.user + used.system) / 1000 / n).toFixed(3)} ms CPU per response over ${n}`);
for (const [key, t] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${((100 * t) / total).toFixed(1).padStart(5)} %  ${key}`);
process.exit(0);
