#!/usr/bin/env node
// Load with hostile traffic: a fixed number of concurrent clients run full OpenID4VP flows (RP
// create → wallet fetches the signed request → test wallet posts an encrypted HAIP SD-JWT VC
// presentation → RP resolves the code and reads the claims), with real verification, while about
// 1 % of requests come from the hostile corpus. The authorizer runs in a child process (so the
// load generator's own crypto does not share its event loop); it reports its memory and
// event-loop delay. Reports errors by class, p50/p99 per request kind and memory growth; exits 1
// on any 5xx. Not a CI gate: `node bench/tools/hostile-load.mjs` after a build.
//   BENCH_HOSTILE_SECONDS (60), BENCH_HOSTILE_CONCURRENCY (16), BENCH_HOSTILE_RATE (0.01),
//   BENCH_ADAPTER (express | hono | koa | fetch; default express)
import { fork } from 'node:child_process';
import { writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { HOSTILE } from '../hostile-corpus.mjs';

const role = process.argv[2] ?? 'driver';
if (role === 'server') await runServer();
else await runDriver();

async function runServer() {
  const { createAuthorizer, memoryStore } = await import('@vp-authorizer/core');
  const { generateDevSigningKey } = await import('@vp-authorizer/keys');
  const { localValidator, localVerifier } = await import('@vp-authorizer/local');
  const adapter = process.env.BENCH_ADAPTER ?? 'express';
  const { issuerRootPem } = await new Promise((resolve) => process.once('message', resolve));
  const { signing } = await generateDevSigningKey();
  const apiKey = 'bench-hostile-api-key-0001';
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const authorizerAt = (origin) =>
    createAuthorizer({
      publicBaseUrl: `${origin}/authz`,
      basePath: '/authz',
      store: memoryStore(),
      instances: [
        {
          id: 'bench',
          apiKeys: [apiKey],
          signing,
          validator: localValidator({ trustedIssuers: [issuerRootPem] }),
          verifier: localVerifier({ trustAnchors: [issuerRootPem] }),
          config: { openId4vp: { redirectUri: `${origin}/done` } },
        },
      ],
    });
  const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)));
  let origin;
  if (adapter === 'express') {
    const { default: express } = await import('express');
    const { authorizerRouter } = await import('@vp-authorizer/express');
    const app = express();
    origin = await listen(createServer(app));
    app.use('/authz', authorizerRouter(authorizerAt(origin)));
  } else if (adapter === 'hono') {
    const { Hono } = await import('hono');
    const { serve } = await import('@hono/node-server');
    const { authorizerApp } = await import('@vp-authorizer/hono');
    const app = new Hono();
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${server.address().port}`;
    app.route('/authz', authorizerApp(authorizerAt(origin)));
  } else if (adapter === 'koa') {
    const { default: Koa } = await import('koa');
    const { authorizerMiddleware } = await import('@vp-authorizer/koa');
    const app = new Koa();
    origin = await listen(createServer(app.callback()));
    app.use(authorizerMiddleware(authorizerAt(origin), { prefix: '/authz' }));
  } else {
    let authorizer;
    const server = createServer(async (req, res) => {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      const response = await authorizer.fetch(new Request(`${origin}${req.url}`, { method: req.method, headers: req.headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) }));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
    origin = await listen(server);
    authorizer = authorizerAt(origin);
  }
  process.on('message', (message) => {
    if (message !== 'stats') return;
    const { rss, heapUsed } = process.memoryUsage();
    process.send({ rss, heapUsed, loopMaxMs: delay.max / 1e6, loopP99Ms: delay.percentile(99) / 1e6 });
    delay.reset();
  });
  process.send({ origin: `${origin}/authz`, apiKey, trustAnchor: signing.trustAnchor });
}

async function runDriver() {
  const { allowInsecureUrlsForTests, createTestIssuer, createTestWallet } = await import('@vp-authorizer/testing');
  const seconds = Number(process.env.BENCH_HOSTILE_SECONDS ?? 60);
  const concurrency = Number(process.env.BENCH_HOSTILE_CONCURRENCY ?? 16);
  const hostileRate = Number(process.env.BENCH_HOSTILE_RATE ?? 0.01);
  allowInsecureUrlsForTests();
  const issuer = await createTestIssuer({ commonName: 'bench issuer' });
  const wallet = await createTestWallet();
  await wallet.addSdJwtVc(issuer, { vct: 'urn:eudi:pid:1', claims: { given_name: 'Erika', family_name: 'Mustermann' } });

  const child = fork(fileURLToPath(import.meta.url), ['server'], { stdio: 'inherit', env: process.env });
  const fromChild = () => new Promise((resolve) => child.once('message', resolve));
  child.send({ issuerRootPem: issuer.rootCertificatePem });
  const { origin, apiKey, trustAnchor } = await fromChild();
  const stats = async () => (child.send('stats'), fromChild());

  const samples = new Map(); // kind → {latencies, classes}
  const record = (kind, ms, status, closesConnection = false) => {
    let s = samples.get(kind);
    if (!s) samples.set(kind, (s = { latencies: [], classes: {} }));
    s.latencies.push(ms);
    const cls = status === 0 ? (closesConnection ? 'closed mid-upload' : 'network') : `${Math.floor(status / 100)}xx`;
    s.classes[cls] = (s.classes[cls] ?? 0) + 1;
  };
  async function call(kind, path, { method = 'GET', body, type, headers = {}, rp = true, closesConnection = false } = {}) {
    const started = performance.now();
    let status = 0;
    let json;
    try {
      const response = await fetch(`${origin}${path}`, {
        method,
        headers: { ...(rp ? { authorization: `Bearer ${apiKey}` } : {}), ...(type ? { 'content-type': type } : {}), ...headers },
        ...(body !== undefined ? { body } : {}),
      });
      status = response.status;
      const textBody = await response.text();
      try {
        json = JSON.parse(textBody);
      } catch {
        json = textBody;
      }
    } catch {
      status = 0;
    }
    record(kind, performance.now() - started, status, closesConnection);
    return { status, json };
  }

  const PID_QUERY = { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: [{ path: ['given_name'] }] }] } };
  let authorized = 0;
  let flowsFailed = 0;
  async function legitFlow() {
    const created = await call('create', '/openid4/vp/v1_0/authorizations', { method: 'POST', type: 'application/json', body: JSON.stringify({ responseMode: 'direct_post.jwt', profile: 'haip', query: PID_QUERY }) });
    if (created.status !== 201) return void flowsFailed++;
    const started = performance.now();
    const request = await wallet.receive(created.json.authorizeUrl, { verifierTrustAnchors: [trustAnchor] });
    record('wallet: request object', performance.now() - started, 200);
    const t = performance.now();
    const response = await wallet.respond(request);
    record('wallet: response', performance.now() - t, response.status);
    const code = new URL(response.body?.redirect_uri ?? 'http://x/').searchParams.get('response_code');
    if (!code) return void flowsFailed++;
    const resolved = await call('resolve', '/openid4/vp/v1_0/response-code/resolve', { method: 'POST', type: 'application/json', body: JSON.stringify({ response_code: code, authorization_id: created.json.authorizationId }) });
    if (resolved.json?.status === 'authorized') authorized++;
    else flowsFailed++;
    await call('credentials', `/openid4/vp/v1_0/authorizations/${created.json.authorizationId}/credentials`);
  }

  let hostileIndex = 0;
  async function hostileRequest() {
    const attack = HOSTILE[hostileIndex++ % HOSTILE.length];
    const target = { issuerX5c: issuer.x5c };
    if (attack.create) {
      const created = await call('create', '/openid4/vp/v1_0/authorizations', { method: 'POST', type: 'application/json', body: JSON.stringify(attack.create) });
      if (created.status !== 201) return;
      target.id = created.json.authorizationId;
      const getRequest = created.json.digitalCredentialGetRequest;
      // org-iso-mdoc: no request object; the sealing needs the EncryptionInfo.
      if (getRequest?.protocol === 'org-iso-mdoc') target.encryptionInfo = getRequest.data.encryptionInfo;
      else {
        const requestUri = new URL(created.json.authorizeUrl).searchParams.get('request_uri');
        const jwt = await fetch(requestUri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' }).then((r) => r.text());
        target.state = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()).state ?? '';
      }
    }
    const { method, path, type, body, headers, rp = false } = await attack.request(target);
    await call(`hostile: ${attack.name}`, path, { method, type, body, headers, rp, closesConnection: attack.closesConnection });
  }

  // Warm up (JIT, caches), then take the memory baseline.
  for (let i = 0; i < 20; i++) await legitFlow();
  samples.clear();
  authorized = 0;
  const before = await stats();
  const deadline = Date.now() + seconds * 1000;
  const memory = [];
  const sampler = setInterval(async () => memory.push(await stats()), 5_000);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < deadline) {
        if (Math.random() < hostileRate) await hostileRequest();
        else await legitFlow();
      }
    }),
  );
  clearInterval(sampler);
  const after = await stats();
  child.kill();

  const pct = (values, p) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
  };
  const rows = [...samples.entries()].map(([kind, s]) => ({ kind, count: s.latencies.length, p50: +pct(s.latencies, 50).toFixed(1), p99: +pct(s.latencies, 99).toFixed(1), classes: s.classes }));
  const fiveXx = rows.reduce((n, r) => n + (r.classes['5xx'] ?? 0), 0);
  const network = rows.reduce((n, r) => n + (r.classes.network ?? 0), 0);
  const mb = (b) => +(b / 1048576).toFixed(1);
  const report = {
    adapter: process.env.BENCH_ADAPTER ?? 'express',
    seconds,
    concurrency,
    hostileRate,
    flowsAuthorized: authorized,
    flowsFailed,
    fiveXx,
    networkErrors: network,
    memory: { rssStartMb: mb(before.rss), rssEndMb: mb(after.rss), heapStartMb: mb(before.heapUsed), heapEndMb: mb(after.heapUsed), rssMaxMb: mb(Math.max(...memory.map((m) => m.rss), after.rss)) },
    worstEventLoopDelayMs: +Math.max(after.loopMaxMs, ...memory.map((m) => m.loopMaxMs)).toFixed(1),
    rows,
  };
  mkdirSync(new URL('../results/', import.meta.url), { recursive: true });
  writeFileSync(new URL(`../results/hostile-load-${report.adapter}.json`, import.meta.url), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`hostile load: ${report.adapter}, ${seconds} s, ${concurrency} clients, ${hostileRate * 100} % hostile`);
  console.log(`flows authorized ${authorized}, failed ${flowsFailed}; 5xx ${fiveXx}; network errors ${network}`);
  console.log(`server memory: rss ${report.memory.rssStartMb} → ${report.memory.rssEndMb} MB (max ${report.memory.rssMaxMb}), heap ${report.memory.heapStartMb} → ${report.memory.heapEndMb} MB; worst event-loop delay ${report.worstEventLoopDelayMs} ms`);
  console.log('| request | count | p50 ms | p99 ms | classes |\n|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.kind} | ${r.count} | ${r.p50} | ${r.p99} | ${Object.entries(r.classes).map(([k, v]) => `${k}: ${v}`).join(', ')} |`);
  process.exit(fiveXx > 0 || network > 0 ? 1 : 0);
}
