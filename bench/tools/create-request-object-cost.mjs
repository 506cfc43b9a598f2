#!/usr/bin/env node
// Server CPU of the first two steps of a redirect flow, in process: POST /authorizations (HAIP,
// direct_post.jwt, DCQL for an SD-JWT PID) and the wallet's POST to request_uri with
// wallet_metadata. Only the time inside authorizer.fetch (and reading its body) counts.
//
// A/B: pass several builds of @vp-authorizer/core (each a directory holding its dist/index.js, placed
// under packages/core so that its dependencies resolve); they are measured interleaved, batch by
// batch, in one process, so that each sees the same load from the rest of the machine.
//
// Run (after building core): node bench/tools/create-request-object-cost.mjs [batch=200] [rounds=8] [coreDir...]
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { DEFAULT_WALLET_METADATA } from '@vp-authorizer/testing';

const BATCH = Number(process.argv[2] ?? 200);
const ROUNDS = Number(process.argv[3] ?? 8);
const dirs = process.argv.slice(4);
const BASE = 'https://verifier.example';
const API_KEY = 'create-cost-api-key-0001';
const createBody = JSON.stringify({
  responseMode: 'direct_post.jwt',
  profile: 'haip',
  query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: [{ path: ['given_name'] }, { path: ['family_name'] }] }] } },
});
const walletForm = (i) => new URLSearchParams({ wallet_metadata: JSON.stringify(DEFAULT_WALLET_METADATA), wallet_nonce: `n${i}` }).toString();
// What localVerifier declares for HAIP, without loading the local package (it imports the main build).
const validator = { validate: async () => [] };
const verifier = { supportedAlgorithms: () => ({ jose: ['ES256'], cose: [-7, -9] }), verify: async () => [], verifyIdToken: async () => [] };

async function setUp(label, core) {
  const dev = await generateDevSigningKey();
  const authorizer = core.createAuthorizer({
    publicBaseUrl: BASE,
    sweepIntervalMs: 0,
    store: core.memoryStore({ sweepIntervalMs: 0 }),
    instances: [{ id: 'cost', apiKeys: [API_KEY], signing: dev.signing, config: { openId4vp: { redirectUri: 'https://rp.example/cb' } }, validator, verifier }],
  });
  await authorizer.ready();
  return { label, authorizer, create: 0, requestObject: 0, n: 0 };
}

async function timed(authorizer, request) {
  const start = process.cpuUsage();
  const response = await authorizer.fetch(request);
  const body = await response.text();
  const used = process.cpuUsage(start);
  if (response.status >= 300) throw new Error(`${request.method} ${request.url} answered ${response.status}: ${body}`);
  return { micros: used.user + used.system, body };
}

async function batch(v, record) {
  const created = [];
  for (let i = 0; i < BATCH; i++) {
    const request = new Request(`${BASE}/openid4/vp/v1_0/authorizations`, { method: 'POST', headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' }, body: createBody });
    const { micros, body } = await timed(v.authorizer, request);
    if (record) v.create += micros;
    created.push(new URL(JSON.parse(body).authorizeUrl).searchParams.get('request_uri'));
  }
  for (let i = 0; i < BATCH; i++) {
    const request = new Request(created[i], { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: walletForm(i) });
    const { micros } = await timed(v.authorizer, request);
    if (record) v.requestObject += micros;
  }
  if (record) v.n += BATCH;
}

const variants = [];
if (dirs.length === 0) variants.push(await setUp('@vp-authorizer/core', await import('@vp-authorizer/core')));
for (const dir of dirs) variants.push(await setUp(dir, await import(pathToFileURL(resolve(dir, 'dist/index.js')).href)));
for (const v of variants) for (let i = 0; i < 3; i++) await batch(v, false);
const perRound = variants.map(() => []);
for (let r = 0; r < ROUNDS; r++) {
  // Alternate the order each round so neither build always runs right after the other.
  const order = r % 2 === 0 ? variants.map((_, i) => i) : variants.map((_, i) => variants.length - 1 - i);
  for (const i of order) {
    const v = variants[i];
    const before = { create: v.create, requestObject: v.requestObject };
    await batch(v, true);
    perRound[i].push({ create: (v.create - before.create) / BATCH, requestObject: (v.requestObject - before.requestObject) / BATCH });
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
variants.forEach((v, i) => {
  const c = median(perRound[i].map((x) => x.create));
  const ro = median(perRound[i].map((x) => x.requestObject));
  console.log(`${v.label}: create ${c.toFixed(0)} µs, request object ${ro.toFixed(0)} µs CPU (median of ${ROUNDS} batches of ${BATCH})`);
});
for (const v of variants) await v.authorizer.close();
