#!/usr/bin/env node
// Where an Annex C response's decrypt + verify (the goal row of bench/annex-c-response-cost.mjs)
// spends its CPU beside the direct node:crypto work, step by step, in interleaved rounds of one
// process: the HPKE open (`decryptAnnexCResponse` ↔ the direct open), the DeviceResponse parse
// (`annexCVpToken` + `runFormatPolicy`: no cryptography, no direct counterpart), the validator
// (DCQL, trusted issuer: no direct counterpart beyond the chain lookup counted with verify), and
// the verifier (`localVerifier().verify` ↔ IssuerAuth, digests and DeviceAuth done directly).
// Each step runs on its own fresh answer, with the steps before it done outside the timing.
// Run after a build: node bench/tools/annex-c-steps.mjs [iterations=30] [rounds=7]
import { directVerifier } from '../annex-c-response-cost.mjs';
import { inProcessAuthorizer } from '../lib/in-process-authorizer.mjs';

const iterations = Number(process.argv[2] ?? 30);
const rounds = Number(process.argv[3] ?? 7);
const ORIGIN = 'https://rp.example';
const MDL = 'org.iso.18013.5.1.mDL';
const NS = 'org.iso.18013.5.1';
const { createTestIssuer, createTestWallet } = await import('@vp-authorizer/testing');
const { runFormatPolicy, CborBudget } = await import('@vp-authorizer/core/formats');
const { decryptAnnexCResponse, annexCVpToken, annexCTranscriptInput } = await import('@vp-authorizer/core/internal');
const issuer = await createTestIssuer();
const wallet = await createTestWallet();
await wallet.addMdoc(issuer, { docType: MDL, namespaces: { [NS]: { family_name: 'Mustermann', given_name: 'Erika', age_over_18: true } } });
const { authorizer, store, validator, verifier } = await inProcessAuthorizer({ base: 'https://verifier.example', apiKey: 'steps-key-0123456789', instanceId: 'bench', issuer });
const body = { responseMode: 'dc_api', protocol: 'org-iso-mdoc', expectedOrigins: [ORIGIN], query: { type: 'DCQL', dcql: { credentials: [{ id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: MDL }, claims: ['family_name', 'given_name', 'age_over_18'].map((c) => ({ path: [NS, c] })) }] } } };
const options = { signal: new AbortController().signal };

/** A fresh answer with the steps before `step` already done, so that only `step` is timed. */
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
const n = iterations * (rounds + 2);
const pools = {};
const steps = {
  'ours: HPKE open': async (a) => decryptAnnexCResponse(a.response, a.record.annexC.privateJwk, annexCTranscriptInput(a.record.annexC.encryptionInfo, ORIGIN), new CborBudget()),
  'ours: parse (format policy)': async (a) => {
    const budget = new CborBudget();
    if (!runFormatPolicy({ query: a.record.request.query, responseType: a.record.request.responseType, vpToken: annexCVpToken(a.deviceResponse, a.record.request.query.dcql, budget) }).ok) throw new Error('format');
  },
  'ours: validate': async (a) => {
    const results = await validator.validate({ authorizationId: a.record.id, query: a.record.request.query, presentations: a.format.presentations }, options);
    if (results.some((r) => r.error)) throw new Error('validate');
  },
  'ours: verify': async (a) => {
    const { request } = a.record;
    const results = await verifier.verify({ authorizationId: a.record.id, query: request.query, presentations: a.format.presentations, nonce: request.nonce, audience: `origin:${ORIGIN}`, sessionTranscript: a.transcript, holderBindingRequired: { mdl: true }, didMethods: {} }, options);
    if (results.some((r) => r.error)) throw new Error('verify');
  },
};
for (const name of Object.keys(steps)) {
  pools[name] = [];
  for (let i = 0; i < n; i++) pools[name].push(await answer());
}
const direct = await directVerifier(await answer(), issuer.rootCertificatePem);
const sides = {
  ...Object.fromEntries(Object.entries(steps).map(([name, fn]) => {
    let next = 0;
    return [name, () => fn(pools[name][next++])];
  })),
  'direct: HPKE open': async () => direct.open(),
  'direct: IssuerAuth, digests, DeviceAuth': async () => direct.verifyDocument(false),
};
const times = Object.fromEntries(Object.keys(sides).map((s) => [s, []]));
for (let r = 0; r < rounds + 2; r++) {
  const order = r % 2 === 0 ? Object.keys(sides) : Object.keys(sides).reverse();
  for (const side of order) {
    const start = process.cpuUsage();
    for (let i = 0; i < iterations; i++) await sides[side]();
    const used = process.cpuUsage(start);
    if (r >= 2) times[side].push((used.user + used.system) / 1000 / iterations);
  }
}
await authorizer.close();
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const total = (prefix) => Object.entries(times).filter(([s]) => s.startsWith(prefix)).reduce((sum, [, t]) => sum + median(t), 0);
for (const [side, t] of Object.entries(times)) console.log(`${side.padEnd(42)} ${median(t).toFixed(3)} ms (rounds ${Math.min(...t).toFixed(3)}–${Math.max(...t).toFixed(3)})`);
console.log(`${'ours, sum of medians'.padEnd(42)} ${total('ours').toFixed(3)} ms`);
console.log(`${'direct, sum of medians'.padEnd(42)} ${total('direct').toFixed(3)} ms (ratio ${(total('ours') / total('direct')).toFixed(2)}×)`);
process.exit(0);
