#!/usr/bin/env node
// The longest event-loop stall each hostile request causes, beside the stall of one honest
// encrypted wallet response verified for real, all in one process. The requirement is that no
// input within the body limit blocks the loop for long (250 ms on a slow machine); this measures
// it, the tests do not (they assert the outcomes and that nothing changed state, never a time).
// A stall is the largest gap between two turns of a setImmediate chain that runs while the
// request is handled, so waiting on the thread pool does not count and the stall is attributed
// to the request that caused it. Each request runs `BENCH_STALL_REPEAT` (5) times; the median counts.
// `BENCH_STALL_ONLY=<text>` measures only the requests whose name contains it; `BENCH_STALL_BUILD=<dir>`
// uses a saved build of core and local (`node bench/lib/ab-builds.mjs save <dir>`) to compare builds.
import { HOSTILE, HOSTILE_LDP } from './hostile-corpus.mjs';
import { loadBuild } from './lib/ab-builds.mjs';
import { inProcessAuthorizer } from './lib/in-process-authorizer.mjs';
import { isMain, printJson } from './lib/main.mjs';

export const STALL_REQUIREMENT_MS = 250;
const BASE = 'https://verifier.example';
const API_KEY = 'bench-stalls-api-key-0001';

export async function run({ repeat = Number(process.env.BENCH_STALL_REPEAT ?? 5), only = process.env.BENCH_STALL_ONLY } = {}) {
  const { createTestIssuer, createTestWallet } = await import('@vp-authorizer/testing');
  const issuer = await createTestIssuer({ commonName: 'bench issuer' });
  const build = process.env.BENCH_STALL_BUILD ? await loadBuild(process.env.BENCH_STALL_BUILD) : undefined;
  const { authorizer, dev } = await inProcessAuthorizer({ base: BASE, apiKey: API_KEY, instanceId: 'stalls', issuer, build });
  // The test wallet reaches the authorizer through fetch: route its calls in process.
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    return request.url.startsWith(BASE) ? authorizer.fetch(request) : realFetch(input, init);
  };
  const requestOf = ({ method, path, type, body, headers = {}, rp }) =>
    new Request(`${BASE}${path}`, {
      method,
      headers: { ...(type ? { 'content-type': type } : {}), ...(rp ? { authorization: `Bearer ${API_KEY}` } : {}), ...headers },
      body,
    });
  const call = (spec) => authorizer.fetch(requestOf(spec));
  const create = async (body) => {
    const res = await call({ method: 'POST', path: '/openid4/vp/v1_0/authorizations', type: 'application/json', body: JSON.stringify(body), rp: true });
    const created = await res.json();
    // org-iso-mdoc: no request object; the sealing needs the EncryptionInfo.
    if (created.digitalCredentialGetRequest?.protocol === 'org-iso-mdoc') return { id: created.authorizationId, encryptionInfo: created.digitalCredentialGetRequest.data.encryptionInfo, issuerX5c: issuer.x5c };
    const requestUri = new URL(created.authorizeUrl).searchParams.get('request_uri');
    const jwt = await (await authorizer.fetch(new Request(requestUri))).text();
    const claims = JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8'));
    return { id: created.authorizationId, state: claims.state, authorizeUrl: created.authorizeUrl, issuerX5c: issuer.x5c };
  };

  const wallet = await createTestWallet();
  await wallet.addSdJwtVc(issuer, { vct: 'urn:eudi:pid:1', claims: { given_name: 'Erika', family_name: 'Mustermann' } });
  const honest = async () => {
    const created = await (await call({ method: 'POST', path: '/openid4/vp/v1_0/authorizations', type: 'application/json', rp: true, body: JSON.stringify({ responseMode: 'direct_post.jwt', profile: 'haip', query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: [{ path: ['given_name'] }] }] } } }) })).json();
    const prepared = await wallet.createResponse(await wallet.receive(created.authorizeUrl, { verifierTrustAnchors: [dev.rootCertificatePem] }), { enc: 'A128GCM' });
    return () => wallet.submit(prepared).then((result) => {
      if (result.status !== 200) throw new Error(`honest response answered ${result.status}`);
      return result.status;
    });
  };
  for (let i = 0; i < 30; i++) await (await honest())(); // warm the JIT on the honest path

  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const rows = [];
  const honestStalls = [];
  for (let r = 0; r < repeat; r++) honestStalls.push((await stallOf(await honest())).stallMs);
  const honestMs = median(honestStalls);
  for (const attack of HOSTILE.filter((a) => only === undefined || a.name.includes(only))) {
    const stalls = [];
    const statuses = new Set();
    for (let r = 0; r < repeat; r++) {
      const ctx = attack.create ? await create(attack.create) : { issuerX5c: issuer.x5c };
      const request = requestOf(await attack.request(ctx)); // built outside: the client's work
      const { stallMs, status } = await stallOf(async () => {
        const res = await authorizer.fetch(request);
        await res.arrayBuffer();
        return res.status;
      });
      stalls.push(stallMs);
      statuses.add(status);
    }
    const stallMs = median(stalls);
    rows.push({ name: attack.name, statuses: [...statuses], stallMs: +stallMs.toFixed(2), vsHonest: +(stallMs / honestMs).toFixed(2) });
  }
  globalThis.fetch = realFetch;
  await authorizer.close();
  const worst = rows.reduce((a, b) => (b.stallMs > a.stallMs ? b : a));
  // The Data Integrity documents alone: the worst JSON-LD expansion and RDF canonicalization.
  const ldpNames = new Set(HOSTILE_LDP.map((a) => a.name));
  // None when BENCH_STALL_ONLY left them out.
  const worstLdp = rows.filter((r) => ldpNames.has(r.name)).reduce((a, b) => (a === undefined || b.stallMs > a.stallMs ? b : a), undefined);
  return { repeat, requirementMs: STALL_REQUIREMENT_MS, honestMs: +honestMs.toFixed(2), worst: worst.name, worstMs: worst.stallMs, ...(worstLdp ? { worstCanonicalization: worstLdp.name, worstCanonicalizationMs: worstLdp.stallMs } : {}), rows };
}

/** The longest time without an event-loop turn while `fn` runs. */
async function stallOf(fn) {
  let last = performance.now();
  let max = 0;
  let handle;
  const tick = () => {
    const now = performance.now();
    if (now - last > max) max = now - last;
    last = now;
    handle = setImmediate(tick);
  };
  handle = setImmediate(tick);
  let status;
  try {
    status = await fn();
  } finally {
    clearImmediate(handle);
  }
  return { stallMs: Math.max(max, performance.now() - last), status };
}

if (isMain(import.meta.url)) printJson(await run());
