#!/usr/bin/env node
// Where an Annex C response's decrypt + verify (the goal row of bench/annex-c-response-cost.mjs)
// spends its CPU beside the direct node:crypto work, step by step, in interleaved rounds of one
// process: the HPKE open (`decryptAnnexCResponse` ↔ the direct open), the DeviceResponse parse
// (`annexCVpToken` + `runFormatPolicy`: no cryptography, no direct counterpart), the validator
// (DCQL, trusted issuer: no direct counterpart beyond the chain lookup counted with verify), and
// the verifier (`localVerifier().verify` ↔ IssuerAuth, digests and DeviceAuth done directly).
// Each step runs on its own fresh answer, with the steps before it done outside the timing.
// Per side: the median of the rounds, their range, and their lowest quartile (a round that meets
// a scavenge of the prepared answers reads several times higher; q1 is the round without one).
// The same steps composed as the pipeline runs them (`<build>: composed`, fresh answers, beside
// `direct: composed`, the direct open and document checks in one call) are timed in the same
// rounds, with each step's CPU inside the path: a step looped alone runs much faster than in the
// path, so the block "inside the composed path" is where a saving is worth what it pays.
// `BUILDS=before=<dir>,…` (builds saved with `node bench/lib/ab-builds.mjs save <dir>`) adds each
// step of each saved build to the same rounds, with its paired ratio to the workspace's step.
// Run after a build: node bench/tools/annex-c-steps.mjs [iterations=30] [rounds=7]
import { directVerifier } from '../annex-c-response-cost.mjs';
import { loadBuild } from '../lib/ab-builds.mjs';
import { annexCCreateBody, annexCIssuerAndWallet, ORIGIN } from '../lib/annex-c-fixture.mjs';
import { inProcessAuthorizer } from '../lib/in-process-authorizer.mjs';

const iterations = Number(process.argv[2] ?? 30);
const rounds = Number(process.argv[3] ?? 7);
const { issuer, wallet } = await annexCIssuerAndWallet();
const body = annexCCreateBody;
const options = { signal: new AbortController().signal };
const n = iterations * (rounds + 2);
const builds = [['ours', undefined], ...(process.env.BUILDS ?? '').split(',').filter(Boolean).map((entry) => entry.split('='))];

/** The four steps of one build, each with its own pool of fresh answers (the steps before it done untimed). */
async function stepsOf(label, dir) {
  const build = await loadBuild(dir);
  const { runFormatPolicy, CborBudget } = build.formats;
  const { decryptAnnexCResponse, annexCVpToken, annexCTranscriptInput } = build.internal;
  const setup = await inProcessAuthorizer({ base: 'https://verifier.example', apiKey: 'steps-key-0123456789', instanceId: 'bench', issuer, build });
  const { authorizer, store, validator, verifier } = setup;
  async function answer() {
    const created = await authorizer.createAuthorization('bench', body);
    const got = await wallet.respondAnnexC(created.digitalCredentialGetRequest, { origin: ORIGIN });
    const record = await store.get('bench', created.authorizationId);
    const transcript = annexCTranscriptInput(record.annexC.encryptionInfo, ORIGIN);
    const response = got.digitalCredentialGetResponse.data.response;
    const deviceResponse = await decryptAnnexCResponse(response, record.annexC.privateJwk, transcript);
    const format = runFormatPolicy({ query: record.request.query, responseType: record.request.responseType, vpToken: annexCVpToken(deviceResponse, record.request.query.dcql) });
    return { record, transcript, response, deviceResponse, format, body: { origin: ORIGIN, digitalCredentialGetResponse: got.digitalCredentialGetResponse }, ...got };
  }
  const steps = {
    'HPKE open': async (a) => decryptAnnexCResponse(a.response, a.record.annexC.privateJwk, annexCTranscriptInput(a.record.annexC.encryptionInfo, ORIGIN), new CborBudget()),
    'parse (format policy)': async (a) => {
      const budget = new CborBudget();
      if (!runFormatPolicy({ query: a.record.request.query, responseType: a.record.request.responseType, vpToken: annexCVpToken(a.deviceResponse, a.record.request.query.dcql, budget) }).ok) throw new Error('format');
    },
    validate: async (a) => {
      const results = await validator.validate({ authorizationId: a.record.id, query: a.record.request.query, presentations: a.format.presentations }, options);
      if (results.some((r) => r.error)) throw new Error('validate');
    },
    verify: async (a) => {
      const { request } = a.record;
      const results = await verifier.verify({ authorizationId: a.record.id, query: request.query, presentations: a.format.presentations, nonce: request.nonce, audience: `origin:${ORIGIN}`, sessionTranscript: a.transcript, holderBindingRequired: { mdl: true }, didMethods: {} }, options);
      if (results.some((r) => r.error)) throw new Error('verify');
    },
  };
  const sides = {};
  for (const [name, fn] of Object.entries(steps)) {
    const pool = [];
    for (let i = 0; i < n; i++) pool.push(await answer());
    let next = 0;
    sides[`${label}: ${name}`] = () => fn(pool[next++]);
  }
  // The same four steps composed as the pipeline runs them, on fresh answers, each step's CPU read
  // around it (two getrusage calls per step, about 1 µs each, billed to the step).
  const pool = [];
  for (let i = 0; i < n; i++) {
    const created = await authorizer.createAuthorization('bench', body);
    const got = await wallet.respondAnnexC(created.digitalCredentialGetRequest, { origin: ORIGIN });
    pool.push({ record: await store.get('bench', created.authorizationId), response: got.digitalCredentialGetResponse.data.response });
  }
  const spent = { 'HPKE open': 0, 'parse (format policy)': 0, validate: 0, verify: 0 };
  const lap = (step, since) => {
    const used = process.cpuUsage(since);
    spent[step] += used.user + used.system;
    return process.cpuUsage();
  };
  let next = 0;
  const composed = async () => {
    const { record, response } = pool[next++];
    const { request, annexC } = record;
    let t = process.cpuUsage();
    const budget = new CborBudget();
    const transcript = annexCTranscriptInput(annexC.encryptionInfo, ORIGIN);
    const deviceResponse = await decryptAnnexCResponse(response, annexC.privateJwk, transcript, budget);
    t = lap('HPKE open', t);
    const format = runFormatPolicy({ query: request.query, responseType: request.responseType, vpToken: annexCVpToken(deviceResponse, request.query.dcql, budget) });
    if (!format.ok) throw new Error('format');
    t = lap('parse (format policy)', t);
    const common = { authorizationId: record.id, query: request.query, presentations: format.presentations };
    const validated = await validator.validate(common, options);
    t = lap('validate', t);
    const verified = await verifier.verify({ ...common, nonce: request.nonce, audience: `origin:${ORIGIN}`, sessionTranscript: transcript, holderBindingRequired: { mdl: true }, didMethods: {} }, options);
    lap('verify', t);
    if (validated.some((r) => r.error) || verified.some((r) => r.error)) throw new Error('composed');
  };
  return { sides, answer, authorizer, composed, spent };
}

const sides = {};
const setups = [];
for (const [label, dir] of builds) {
  const setup = await stepsOf(label, dir);
  setups.push(setup);
  Object.assign(sides, setup.sides);
}
const direct = await directVerifier(await setups[0].answer(), issuer.rootCertificatePem);
sides['direct: HPKE open'] = async () => direct.open();
sides['direct: IssuerAuth, digests, DeviceAuth'] = async () => direct.verifyDocument(false);
for (const [i, [label]] of builds.entries()) sides[`${label}: composed`] = setups[i].composed;
sides['direct: composed'] = async () => direct.all(false);
const spentBefore = {};

const times = Object.fromEntries(Object.keys(sides).map((s) => [s, []]));
/** Per build and step: its CPU inside the composed rounds, per response. */
const inPath = {};
for (let r = 0; r < rounds + 2; r++) {
  const order = r % 2 === 0 ? Object.keys(sides) : Object.keys(sides).reverse();
  for (const side of order) {
    const [label, step] = side.split(': ');
    const setup = step === 'composed' && label !== 'direct' ? setups[builds.findIndex(([l]) => l === label)] : undefined;
    if (setup) Object.assign(spentBefore, { [label]: { ...setup.spent } });
    const start = process.cpuUsage();
    for (let i = 0; i < iterations; i++) await sides[side]();
    const used = process.cpuUsage(start);
    if (r < 2) continue;
    times[side].push((used.user + used.system) / 1000 / iterations);
    if (setup) for (const [name, total] of Object.entries(setup.spent)) (inPath[`${label}: ${name}`] ??= []).push((total - spentBefore[label][name]) / 1000 / iterations);
  }
}
for (const { authorizer } of setups) await authorizer.close();
const sorted = (values) => [...values].sort((a, b) => a - b);
const median = (values) => sorted(values)[Math.floor(values.length / 2)];
const q1 = (values) => sorted(values)[Math.floor(values.length / 4)];
const total = (prefix, of = median) => Object.entries(times).filter(([s]) => s.startsWith(`${prefix}: `) && !s.endsWith(': composed')).reduce((sum, [, t]) => sum + of(t), 0);
for (const [side, t] of Object.entries(times)) {
  const [label, step] = side.split(': ');
  const paired = label !== 'ours' && label !== 'direct' ? times[`ours: ${step}`].map((x, i) => x / t[i]) : undefined;
  const versus = paired ? `; ours / ${label} ${median(paired).toFixed(2)} (rounds ${Math.min(...paired).toFixed(2)}–${Math.max(...paired).toFixed(2)})` : '';
  console.log(`${side.padEnd(42)} ${median(t).toFixed(3)} ms (rounds ${Math.min(...t).toFixed(3)}–${Math.max(...t).toFixed(3)}, q1 ${q1(t).toFixed(3)})${versus}`);
}
for (const [label] of builds) {
  console.log(`${`${label}, sum of medians (of q1)`.padEnd(42)} ${total(label).toFixed(3)} ms (${total(label, q1).toFixed(3)}): ${(total(label) / total('direct')).toFixed(2)}× (${(total(label, q1) / total('direct', q1)).toFixed(2)}×) direct`);
}
console.log(`${'direct, sum of medians (of q1)'.padEnd(42)} ${total('direct').toFixed(3)} ms (${total('direct', q1).toFixed(3)})`);
console.log('inside the composed path (fresh answers), per response, median of rounds (q1):');
for (const [side, t] of Object.entries(inPath)) console.log(`  ${side.padEnd(40)} ${median(t).toFixed(3)} ms (${q1(t).toFixed(3)})`);
for (const [label] of builds) {
  const ratios = times[`${label}: composed`].map((x, i) => x / times['direct: composed'][i]);
  console.log(`  ${`${label}: composed / direct`.padEnd(40)} ${median(ratios).toFixed(2)}× median of rounds (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`);
}
process.exit(0);
