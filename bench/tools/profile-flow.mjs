#!/usr/bin/env node
// Server CPU of full OpenID4VP flows in process, beside the cryptographic floor of the same flow.
// One flow: create (HAIP, direct_post.jwt, DCQL for an SD-JWT PID) → request object → the test
// wallet's encrypted SD-JWT VC + KB-JWT response (ECDH-ES/A128GCM) verified by localValidator and
// localVerifier → response code → resolve. Only the time inside authorizer.fetch counts (the
// wallet's own crypto runs between those calls); the floor is the same cryptographic operations
// done directly with node:crypto, measured in the same process, so the ratio is what to compare.
//
// Run (after building the packages): node bench/tools/profile-flow.mjs [flows=300] [rounds=5]
// Server-side CPU profiles: PROFILE=/tmp/prof node bench/tools/profile-flow.mjs 400
// A/B: BUILDS=base=<dir>,new=<dir> (each saved by `node bench/lib/ab-builds.mjs save <dir>` after
// building core and local) runs one authorizer per build, flows alternating between them, so
// that each build sees the same load and the same cache state; one row per build and round, then
// per endpoint and for the flow each build's median of the round-by-round ratios to the first
// build, with their range (the spread to report).
import {
  X509Certificate,
  createCipheriv,
  createDecipheriv,
  createHash,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  randomBytes,
  sign,
  verify,
} from 'node:crypto';
import { DEFAULT_WALLET_METADATA, createTestIssuer, createTestWallet } from '@vp-authorizer/testing';
import { inProcessAuthorizer } from '../lib/in-process-authorizer.mjs';
import { loadBuild } from '../lib/ab-builds.mjs';

const FLOWS = Number(process.argv[2] ?? 300);
const ROUNDS = Number(process.argv[3] ?? 5);
const BUILDS = process.env.BUILDS ? process.env.BUILDS.split(',').map((entry) => entry.split('=')) : [['workspace', undefined]];
const V1 = '/openid4/vp/v1_0';
const API_KEY = 'profile-flow-api-key-0001';

const issuer = await createTestIssuer();
/** One authorizer per build, each at its own origin; `current` is the one the next flow uses. */
const variants = [];
for (const [i, [label, dir]] of BUILDS.entries()) {
  const base = `https://verifier${i}.example`;
  const { authorizer, dev } = await inProcessAuthorizer({ base, apiKey: API_KEY, instanceId: 'profile', issuer, build: await loadBuild(dir) });
  variants.push({ label, base, authorizer, dev, micros: 0, perCall: new Map(), roundCalls: [] });
}
let current = variants[0];

// The wallet fetches the request object and posts its response with fetch: route those calls to
// the authorizer in process and count the CPU spent inside it.
// CPU µs per kind of call (method and path with the authorization id left out) go to the
// variant's perCall, for the breakdown.
async function serve(variant, request) {
  const start = process.cpuUsage();
  const response = await variant.authorizer.fetch(request);
  const body = await response.arrayBuffer();
  const used = process.cpuUsage(start);
  variant.micros += used.user + used.system;
  const call = `${request.method} ${new URL(request.url).pathname.replace(/\/authorizations\/[^/]+/, '/authorizations/{id}').replace(/^\/openid4\/vp\/v1_0\/[^/]+\/(direct_post[^/]*)$/, '{id}/$1')}`;
  variant.perCall.set(call, (variant.perCall.get(call) ?? 0) + used.user + used.system);
  return new Response(body, { status: response.status, headers: response.headers });
}
const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const request = input instanceof Request ? input : new Request(input, init);
  const variant = variants.find((v) => request.url.startsWith(v.base));
  return variant ? serve(variant, request) : realFetch(input, init);
};

const wallet = await createTestWallet();
await wallet.addSdJwtVc(issuer, { vct: 'urn:eudi:pid:1', claims: { given_name: 'Erika', family_name: 'Mustermann', birthdate: '1984-01-26' } });
const createBody = JSON.stringify({
  responseMode: 'direct_post.jwt',
  profile: 'haip',
  query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: [{ path: ['given_name'] }, { path: ['family_name'] }] }] } },
});
const rp = (path, body) =>
  fetch(`${current.base}${V1}${path}`, { method: 'POST', headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' }, body });

async function flow() {
  const created = await (await rp('/authorizations', createBody)).json();
  const request = await wallet.receive(created.authorizeUrl, { verifierTrustAnchors: [current.dev.rootCertificatePem] });
  const result = await wallet.respond(request, { enc: 'A128GCM' });
  if (result.status !== 200) throw new Error(`wallet response answered ${result.status}: ${JSON.stringify(result.body)}`);
  const code = new URL(result.body.redirect_uri).searchParams.get('response_code');
  const resolved = await (await rp('/response-code/resolve', JSON.stringify({ response_code: code }))).json();
  if (resolved.status !== 'authorized') throw new Error(`flow ended ${JSON.stringify(resolved)}`);
}

// --- The floor: the same cryptographic operations with node:crypto, no framework around them.
const anchorCert = new X509Certificate(issuer.rootCertificatePem);
const sample = await (async () => {
  // One real wallet response's artefacts: the issuer JWT with its x5c, the KB-JWT and a JWE.
  const created = await (await rp('/authorizations', createBody)).json();
  const request = await wallet.receive(created.authorizeUrl, { verifierTrustAnchors: [current.dev.rootCertificatePem] });
  const prepared = await wallet.createResponse(request, { enc: 'A128GCM' });
  const sdJwt = prepared.payload.vp_token.pid[0];
  const parts = sdJwt.split('~');
  return { issuerJwt: parts[0], kbJwt: parts[parts.length - 1] };
})();
const json = (b64) => JSON.parse(Buffer.from(b64, 'base64url').toString('utf8'));
const ieee = { dsaEncoding: 'ieee-p1363' };
const verifyCompact = (compact, key) => {
  const [h, p, s] = compact.split('.');
  return verify('sha256', Buffer.from(`${h}.${p}`), { key, ...ieee }, Buffer.from(s, 'base64url'));
};
const signerKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
// A JWE like the wallet's: ECDH-ES + Concat KDF (RFC 7518 4.6.2) + A128GCM, prepared once.
function concatKdf(z, enc, bits) {
  const u32 = (n) => { const b = Buffer.alloc(4); b.writeUInt32BE(n); return b; };
  const field = (buf) => Buffer.concat([u32(buf.length), buf]);
  const info = Buffer.concat([field(Buffer.from(enc)), field(Buffer.alloc(0)), field(Buffer.alloc(0)), u32(bits)]);
  return createHash('sha256').update(Buffer.concat([u32(1), z, info])).digest().subarray(0, bits / 8);
}
const recipient = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jwe = (() => {
  const eph = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const epk = eph.publicKey.export({ format: 'jwk' });
  const header = Buffer.from(JSON.stringify({ alg: 'ECDH-ES', enc: 'A128GCM', epk })).toString('base64url');
  const cek = concatKdf(diffieHellman({ privateKey: eph.privateKey, publicKey: recipient.publicKey }), 'A128GCM', 128);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-128-gcm', cek, iv).setAAD(Buffer.from(header));
  const ct = Buffer.concat([cipher.update(Buffer.alloc(3000, 'x')), cipher.final()]);
  return [header, '', iv.toString('base64url'), ct.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
})();
const recipientJwk = recipient.privateKey.export({ format: 'jwk' });

function floorOnce() {
  // create: a per-request P-256 key and one ES256 request-object signature
  generateKeyPairSync('ec', { namedCurve: 'P-256' });
  sign('sha256', Buffer.alloc(1500, 'r'), { key: signerKey, ...ieee });
  // response: ECDH-ES/A128GCM decrypt with the stored private JWK
  const [h, , iv, ct, tag] = jwe.split('.');
  const epk = createPublicKey({ key: json(h).epk, format: 'jwk' });
  const cek = concatKdf(diffieHellman({ privateKey: createPrivateKey({ key: recipientJwk, format: 'jwk' }), publicKey: epk }), 'A128GCM', 128);
  const decipher = createDecipheriv('aes-128-gcm', cek, Buffer.from(iv, 'base64url')).setAAD(Buffer.from(h)).setAuthTag(Buffer.from(tag, 'base64url'));
  Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]);
  // x5c leaf: parse and check it against the anchor
  const header = json(sample.issuerJwt.split('.')[0]);
  const leaf = new X509Certificate(Buffer.from(header.x5c[0], 'base64'));
  if (!(leaf.checkIssued(anchorCert) && leaf.verify(anchorCert.publicKey))) throw new Error('floor: leaf not issued by the anchor');
  // issuer JWT and KB-JWT signatures
  if (!verifyCompact(sample.issuerJwt, leaf.publicKey)) throw new Error('floor: issuer signature');
  const cnf = json(sample.issuerJwt.split('.')[1]).cnf.jwk;
  if (!verifyCompact(sample.kbJwt, createPublicKey({ key: cnf, format: 'jwk' }))) throw new Error('floor: KB-JWT signature');
}

function cpuMsOf(fn, n) {
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / n;
}

// PROFILE=<dir>: CPU profiles of the server's share only, written as <dir>/create.cpuprofile and
// <dir>/respond.cpuprofile: creations in one batch, then (unprofiled) the wallet fetches the
// request objects and prepares its answers, then the answers are posted and the codes resolved.
if (process.env.PROFILE) {
  const { Session } = await import('node:inspector/promises');
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  const profiled = async (name, fn) => {
    await session.post('Profiler.start');
    await fn();
    const { profile } = await session.post('Profiler.stop');
    mkdirSync(process.env.PROFILE, { recursive: true });
    writeFileSync(`${process.env.PROFILE}/${name}.cpuprofile`, JSON.stringify(profile));
  };
  for (let i = 0; i < 50; i++) await flow();
  const created = [];
  await profiled('create', async () => {
    for (let i = 0; i < FLOWS; i++) created.push(await (await rp('/authorizations', createBody)).json());
  });
  // The request objects as the wallet fetches them (request_uri_method=post with wallet metadata).
  await profiled('request-object', async () => {
    for (const c of created) {
      const requestUri = new URL(c.authorizeUrl).searchParams.get('request_uri');
      const body = new URLSearchParams({ wallet_metadata: JSON.stringify(DEFAULT_WALLET_METADATA), wallet_nonce: `n${created.indexOf(c)}` });
      await (await fetch(requestUri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })).text();
    }
  });
  const prepared = [];
  for (const c of created) prepared.push(await wallet.createResponse(await wallet.receive(c.authorizeUrl, { verifierTrustAnchors: [current.dev.rootCertificatePem] }), { enc: 'A128GCM' }));
  await profiled('respond', async () => {
    for (const p of prepared) {
      const result = await wallet.submit(p);
      const code = new URL(result.body.redirect_uri).searchParams.get('response_code');
      await rp('/response-code/resolve', JSON.stringify({ response_code: code }));
    }
  });
  for (const v of variants) await v.authorizer.close();
  process.exit(0);
}

// Warm up every build and the floor.
for (const v of variants) {
  current = v;
  for (let i = 0; i < Math.min(50, FLOWS); i++) await flow();
  v.micros = 0;
  v.perCall.clear();
}
cpuMsOf(floorOnce, 200);

const rows = variants.map(() => []);
for (let r = 0; r < ROUNDS; r++) {
  for (const v of variants) v.micros = 0;
  const callsBefore = variants.map((v) => new Map(v.perCall));
  let floorMicros = 0;
  // Interleaved flow by flow (builds in turn, then the floor), so that all see the same load from
  // other processes on the machine; the builds take turns going first (the first after the floor
  // finds colder caches).
  for (let i = 0; i < FLOWS; i++) {
    for (let k = 0; k < variants.length; k++) {
      current = variants[(i + k) % variants.length];
      await flow();
    }
    floorMicros += cpuMsOf(floorOnce, 1) * 1000;
  }
  const floorMs = floorMicros / 1000 / FLOWS;
  for (const [k, v] of variants.entries()) {
    const flowMs = v.micros / 1000 / FLOWS;
    rows[k].push({ flowMs, floorMs, ratio: flowMs / floorMs });
    v.roundCalls.push(new Map([...v.perCall].map(([call, micros]) => [call, micros - (callsBefore[k].get(call) ?? 0)])));
    console.log(`round ${r + 1}${variants.length > 1 ? ` ${v.label}` : ''}: flow ${flowMs.toFixed(3)} ms CPU, floor ${floorMs.toFixed(3)} ms CPU, ratio ${(flowMs / floorMs).toFixed(2)}×`);
  }
}
for (const [k, v] of variants.entries()) {
  const prefix = variants.length > 1 ? `${v.label}: ` : '';
  for (const [call, micros] of v.perCall) console.log(`  ${prefix}${call}: ${(micros / 1000 / (ROUNDS * FLOWS)).toFixed(3)} ms CPU per flow`);
  const sorted = [...rows[k]].sort((a, b) => a.ratio - b.ratio);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(`${prefix}median: flow ${median.flowMs.toFixed(3)} ms, floor ${median.floorMs.toFixed(3)} ms, ratio ${median.ratio.toFixed(2)}× (${FLOWS} flows × ${ROUNDS} rounds)`);
}
if (variants.length > 1) {
  // Paired by round: each build's CPU against the first build's in the same round.
  const [first] = variants;
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const spread = (xs) => `${median(xs).toFixed(3)} (rounds ${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;
  console.log(`paired against ${first.label}, median of ${ROUNDS} round ratios:`);
  for (const v of variants.slice(1)) {
    const flow = rows[variants.indexOf(v)].map((row, r) => row.flowMs / rows[0][r].flowMs);
    const calls = [...first.perCall.keys()].map((call) => `${call} ${spread(v.roundCalls.map((m, r) => (m.get(call) ?? 0) / first.roundCalls[r].get(call)))}`);
    console.log(`  ${v.label}: flow ${spread(flow)}; ${calls.join('; ')}`);
  }
}
for (const v of variants) await v.authorizer.close();
