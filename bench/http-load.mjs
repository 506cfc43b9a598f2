#!/usr/bin/env node
// HTTP throughput per adapter, driven by wrk from a second process on loopback. Each target is
// compared with a bare node:http server answering the same status in the same process (the
// baseline), so the ratio shows what the adapter + authorizer add. Needs `wrk` (apt-get install wrk).
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import Koa from 'koa';
import { createAuthorizer, generateDevSigningKey, memoryStore, passThroughValidator, passThroughVerifier } from '@vp-authorizer/core';
import { authorizerRouter } from '@vp-authorizer/express';
import { authorizerApp } from '@vp-authorizer/hono';
import { authorizerMiddleware } from '@vp-authorizer/koa';

const DURATION = process.env.BENCH_HTTP_SECONDS ?? '5';
const CONNECTIONS = process.env.BENCH_HTTP_CONNECTIONS ?? '32';
if (spawnSync('wrk', ['--version']).error) {
  console.error('wrk is not installed (apt-get install -y wrk); skipping the HTTP load benchmark.');
  process.exit(0);
}

const API_KEY = 'bench-api-key-0001';
const { signing } = await generateDevSigningKey();
const authorizerAt = (origin) =>
  createAuthorizer({
    publicBaseUrl: `${origin}/authz`,
    basePath: '/authz',
    sweepIntervalMs: 0,
    store: memoryStore({ sweepIntervalMs: 0 }),
    instances: [{ id: 'b', apiKeys: [API_KEY], signing, validator: passThroughValidator(), verifier: passThroughVerifier() }],
  });

const dir = mkdtempSync(join(tmpdir(), 'vpa-wrk-'));
const resolveScript = join(dir, 'resolve.lua');
// An RP resolving an unknown code: auth check, JSON parse, an atomic consume, a 404.
writeFileSync(resolveScript, `wrk.method = "POST"\nwrk.body = '{"response_code":"unknown-code-0000000000"}'\nwrk.headers["content-type"] = "application/json"\nwrk.headers["authorization"] = "Bearer ${API_KEY}"\n`);

// Async: the servers under test run in this process and must keep serving while wrk runs.
async function wrk(url, script) {
  const args = ['-t1', `-c${CONNECTIONS}`, `-d${DURATION}s`, '--latency', ...(script ? ['-s', script] : []), url];
  const { stdout: out } = await promisify(execFile)('wrk', args, { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
  const p99 = /99%\s+([\d.]+\w+)/.exec(out)?.[1] ?? '?';
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  return { rps, p99, non2xx };
}

async function listen(server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${server.address().port}`;
}

const targets = {
  'fetch handler (node:http bridge)': async () => {
    let authorizer;
    const server = createServer(async (req, res) => {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      const response = await authorizer.fetch(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers: req.headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) }));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
    const origin = await listen(server);
    authorizer = authorizerAt(origin);
    return { origin, close: () => server.close() };
  },
  'Express 5': async () => {
    const app = express();
    // The bare-framework baseline: same statuses, no authorizer.
    app.get('/bare/health', (_req, res) => res.status(204).end());
    app.post('/bare/resolve', express.json(), (_req, res) => res.status(404).json({}));
    const server = createServer(app);
    const origin = await listen(server);
    app.use('/authz', authorizerRouter(authorizerAt(origin)));
    return { origin, close: () => server.close() };
  },
  'Hono 4 (@hono/node-server)': async () => {
    const app = new Hono();
    let origin;
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${server.address().port}`;
    app.get('/bare/health', (c) => c.body(null, 204));
    app.post('/bare/resolve', async (c) => (await c.req.json(), c.json({}, 404)));
    app.route('/authz', authorizerApp(authorizerAt(origin)));
    return { origin, close: () => server.close() };
  },
  'Koa 3': async () => {
    const app = new Koa();
    app.use(async (ctx, next) => {
      if (ctx.path === '/bare/health') return void (ctx.status = 204);
      if (ctx.path === '/bare/resolve') {
        for await (const _ of ctx.req);
        ctx.status = 404;
        ctx.body = {};
        return;
      }
      await next();
    });
    const server = createServer(app.callback());
    const origin = await listen(server);
    app.use(authorizerMiddleware(authorizerAt(origin), { prefix: '/authz' }));
    return { origin, close: () => server.close() };
  },
};

const baselineServer = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(req.method === 'GET' ? 204 : 404, { 'content-type': 'application/json' }).end(req.method === 'GET' ? undefined : '{}'));
});
const baselineOrigin = await listen(baselineServer);
const baseGet = await wrk(`${baselineOrigin}/health`);
const basePost = await wrk(`${baselineOrigin}/resolve`, resolveScript);

const rows = [
  '| target | GET /health req/s | vs bare node:http | vs same framework bare | p99 | POST resolve (404) req/s | vs bare node:http | vs same framework bare | p99 |',
  '|---|---|---|---|---|---|---|---|---|',
  `| bare node:http (baseline) | ${Math.round(baseGet.rps)} | 1.00× | – | ${baseGet.p99} | ${Math.round(basePost.rps)} | 1.00× | – | ${basePost.p99} |`,
];
for (const [name, start] of Object.entries(targets)) {
  const { origin, close } = await start();
  const get = await wrk(`${origin}/authz/health`);
  const post = await wrk(`${origin}/authz/openid4/vp/v1_0/response-code/resolve`, resolveScript);
  const bare = name.startsWith('fetch') ? undefined : { get: await wrk(`${origin}/bare/health`), post: await wrk(`${origin}/bare/resolve`, resolveScript) };
  const vs = (a, b) => (b ? `${(a.rps / b.rps).toFixed(2)}×` : '–');
  rows.push(`| ${name} | ${Math.round(get.rps)} | ${vs(get, baseGet)} | ${vs(get, bare?.get)} | ${get.p99} | ${Math.round(post.rps)} | ${vs(post, basePost)} | ${vs(post, bare?.post)} | ${post.p99} |`);
  close();
}
baselineServer.close();
console.log(`wrk -t1 -c${CONNECTIONS} -d${DURATION}s per cell, Node ${process.version}\n\n${rows.join('\n')}`);
process.exit(0);
