// The demo: a relying party's verifier page and a test wallet page around an authorizer on the
// web-standard fetch handler behind node:http, with the in-process validator/verifier, a generated
// dev signing key and a dev issuer whose credentials sit in the test wallet.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createAuthorizer, resolveCorsConfig } from '@vp-authorizer/core';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { appendVary, corsDecision } from '@vp-authorizer/core/http';
import { localValidator, localVerifier } from '@vp-authorizer/local';
import { allowInsecureUrlsForTests, createTestIssuer } from '@vp-authorizer/testing';
import { configFromEnv, instanceConfigFromEnv, storeFromConfig } from '../shared/config-from-env.mjs';
import { WalletError, createDemoWallet } from './demo-wallet.mjs';
import { PageError, createRelyingParty, pipeToNode } from './relying-party.mjs';

const MAX_BODY_BYTES = 64 * 1024;
const ASSETS = {
  '/': ['index.html', 'text/html; charset=utf-8'],
  '/wallet': ['wallet.html', 'text/html; charset=utf-8'],
  '/assets/style.css': ['style.css', 'text/css; charset=utf-8'],
  '/assets/common.js': ['common.js', 'text/javascript; charset=utf-8'],
  '/assets/verifier.js': ['verifier.js', 'text/javascript; charset=utf-8'],
  '/assets/wallet.js': ['wallet.js', 'text/javascript; charset=utf-8'],
  // The asks (labels, queries, proposed purposes): the verifier page's purpose follows the choice.
  '/assets/asks.js': [fileURLToPath(new URL('./asks.mjs', import.meta.url)), 'text/javascript; charset=utf-8'],
  // The QR decoder of the wallet's "scan a picture" field, served from the package (no CDN).
  '/assets/jsqr.js': [createRequire(import.meta.url).resolve('jsqr/dist/jsQR.js'), 'text/javascript; charset=utf-8'],
};
// Pages load only their own scripts and styles; the QR code is inline SVG markup.
const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/**
 * Start the demo; resolves once it listens. `port: 0` picks a free port. `env` (default
 * `process.env`) is read by the examples' shared loader (docs/examples-configuration.md); with
 * nothing set it runs on the embedded defaults. `port` / `host` override PORT / HOST.
 */
export async function startDemo({ port, host, env = process.env } = {}) {
  const config = configFromEnv(env, { defaultPort: 3000 });
  const cors = resolveCorsConfig({ ...config.cors, allowHeaders: ['Authorization'] });
  // The wallet fetches http:// URLs on this machine; the libraries refuse them unless allowed.
  allowInsecureUrlsForTests();
  const apiKey = config.apiKey ?? `demo_${randomBytes(24).toString('base64url')}`;
  // AUTHZ_READER_AUTH=signing: the demo's signing certificate is then also an mdoc reader certificate.
  const { signing } = await generateDevSigningKey({ commonName: 'vp-authorizer demo verifier', ...(config.readerAuth?.identity === 'signing' ? { readerAuth: true } : {}) });
  const issuer = await createTestIssuer({ commonName: 'vp-authorizer demo issuer' });

  let authorizer;
  let relyingParty;
  let wallet;
  const server = createServer((req, res) => route(req, res).catch((error) => failed(res, error)));
  await new Promise((resolve, reject) => server.once('error', reject).listen(port ?? config.port, host ?? config.host, resolve));
  const { store, close: closeStore } = await storeFromConfig(config);
  const origin = `http://${host ?? config.host}:${server.address().port}`;
  const publicBaseUrl = config.publicBaseUrl ?? `${origin}/authz`;
  const allowed = allowedOrigins(origin, publicBaseUrl);
  // The wallet fetches request objects from this demo's authorizer only.
  wallet = await createDemoWallet({ issuer, verifierTrustAnchors: [signing.trustAnchor], requestUriBase: publicBaseUrl });
  // The demo issuer is always trusted (its credentials sit in the test wallet), and so are the roots you set.
  const trusted = [issuer.rootCertificatePem, ...config.issuerRoots];

  authorizer = createAuthorizer({
    publicBaseUrl,
    basePath: '/authz',
    ...(store ? { store } : {}),
    instances: [
      {
        id: 'demo',
        apiKeys: [apiKey],
        signing,
        // AUTHZ_READER_AUTH*: org-iso-mdoc DocRequests carry readerAuth.
        ...(config.readerAuth ? { readerAuth: config.readerAuth } : {}),
        validator: localValidator({ trustedIssuers: [...trusted, ...config.issuerDids], ...(config.dataIntegrity?.contexts ? { contexts: config.dataIntegrity.contexts } : {}) }),
        verifier: localVerifier({ trustAnchors: trusted, dataIntegrity: config.dataIntegrity }),
        // AUTHZ_REDIRECT_URI replaces the demo's own callback page.
        config: instanceConfigFromEnv(config, { redirectUri: `${origin}/demo/callback` }),
      },
    ],
    onEvent: (event) => console.log(`  event ${event.type} ${event.authorizationId.slice(0, 8)}… → ${event.status}`),
  });

  relyingParty = createRelyingParty({
    origin,
    call: (path, { method, body } = {}) =>
      authorizer.fetch(new Request(`${origin}/authz${path}`, {
        method: method ?? 'GET',
        headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body } : {}),
      })),
  });

  async function route(req, res) {
    const url = new URL(req.url, origin);
    const path = url.pathname;
    if (path.startsWith('/authz/') || path === '/authz') return bridge(req, res);
    refuseForeign(req, allowed);
    if (req.method === 'GET' && Object.hasOwn(ASSETS, path)) return asset(res, ...ASSETS[path]);
    if (req.method === 'POST' && path === '/demo/authorizations') return send(res, 201, await relyingParty.create(req, res, await readJson(req)));
    const own = /^\/demo\/authorizations\/([A-Za-z0-9_-]{1,128})\/(status|events|result|dc-api)$/.exec(path);
    if (own) {
      const [, id, what] = own;
      if (req.method === 'GET' && what === 'status') return send(res, 200, await relyingParty.status(req, res, id));
      if (req.method === 'GET' && what === 'events') return relyingParty.events(req, res, id);
      if (req.method === 'GET' && what === 'result') return send(res, 200, await relyingParty.result(req, res, id));
      if (req.method === 'POST' && what === 'dc-api') return send(res, 200, await relyingParty.dcApi(req, res, id, await readJson(req)));
    }
    if (req.method === 'GET' && path === '/demo/callback') {
      res.writeHead(303, { location: await relyingParty.callback(req, res, url.searchParams.get('response_code')), 'cache-control': 'no-store' });
      return res.end();
    }
    // The test wallet's own backend (a phone would do this itself).
    if (req.method === 'POST' && path === '/demo/wallet/open') return send(res, 200, await wallet.open((await readJson(req))?.authorizeUrl));
    if (req.method === 'POST' && path === '/demo/wallet/answer') {
      const input = await readJson(req);
      return send(res, 200, await wallet.answer(input?.handle, input?.choice));
    }
    // The platform's wallet picker behind navigator.credentials.get, for browsers without a wallet.
    if (req.method === 'POST' && path === '/demo/wallet/dc-api') {
      const input = await readJson(req);
      return send(res, 200, await wallet.answerDcApi(input?.request, input?.origin, input?.choice));
    }
    return send(res, 404, { message: `Nothing at ${req.method} ${path}.` });
  }

  async function bridge(req, res) {
    // EXPRESS_CORS_ENABLED / EXPRESS_CORS_ORIGIN: the same pure decision the adapters' middleware applies.
    const decision = corsDecision(cors, {
      method: req.method ?? 'GET',
      origin: req.headers.origin ?? null,
      accessControlRequestMethod: req.headers['access-control-request-method'] ?? null,
      accessControlRequestHeaders: req.headers['access-control-request-headers'] ?? null,
    });
    const withCors = (headers) => {
      for (const [name, value] of decision.headers) headers[name.toLowerCase()] = name === 'Vary' ? appendVary(headers.vary, value) : value;
      return headers;
    };
    if (decision.preflight) {
      res.writeHead(204, withCors({ 'content-length': '0' }));
      return res.end();
    }
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await readBody(req, 1_000_000);
    const response = await authorizer.fetch(new Request(new URL(req.url, origin), { method: req.method, headers: req.headers, ...(body ? { body } : {}) }));
    res.writeHead(response.status, withCors(Object.fromEntries(response.headers)));
    if (!response.body) return res.end();
    await pipeToNode(response.body, res); // the event stream goes out as it comes
  }

  return {
    origin,
    apiKey,
    config,
    publicBaseUrl,
    trustAnchorPem: signing.trustAnchor,
    issuerRootPem: issuer.rootCertificatePem,
    /** Open event streams and what they hold (see `authorizer.eventStreamStats()`). */
    eventStreamStats: () => authorizer.eventStreamStats(),
    async close() {
      server.closeAllConnections?.();
      await authorizer.close();
      await closeStore();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * The origins the demo's pages are served from: its own, the public base URL's (a tunnel in front
 * of it), and for a loopback address the other loopback names of the same port.
 */
function allowedOrigins(origin, publicBaseUrl) {
  const own = new URL(origin);
  const origins = new Set([own.origin, new URL(publicBaseUrl).origin]);
  // Bound to a loopback or every address: the loopback names reach it too.
  if (['127.0.0.1', 'localhost', '[::1]', '0.0.0.0'].includes(own.hostname)) {
    for (const name of ['127.0.0.1', 'localhost', '[::1]']) origins.add(`http://${name}:${own.port}`);
  }
  return { origins, hosts: new Set([...origins].map((o) => new URL(o).host)) };
}

/**
 * The pages' own routes answer only under the demo's own names: a Host of another name is a DNS
 * rebinding page reaching the demo through the browser; an Origin of another site is a cross-site
 * request (browsers send Origin on every POST, so a cross-site POST cannot pass).
 */
function refuseForeign(req, { origins, hosts }) {
  if (!hosts.has(req.headers.host?.toLowerCase() ?? '')) throw new PageError(403, 'The demo answers only under its own address (the Host header names another).');
  const from = req.headers.origin;
  if (from !== undefined && !origins.has(from.toLowerCase())) throw new PageError(403, 'The demo answers only its own pages (the request comes from another origin).');
}

/** Every failure reaches the page as `{message}` with a status that says whose fault it is. */
function failed(res, error) {
  const expected = error instanceof PageError || error instanceof WalletError;
  if (!expected) console.error(error);
  const status = expected ? error.status : 500;
  const message = expected ? error.message : `The demo could not complete this step: ${error?.message ?? String(error)}`;
  if (res.headersSent) return res.end();
  send(res, status, { message });
}

async function asset(res, file, type) {
  const body = await readFile(file.startsWith('/') ? file : new URL(`./public/${file}`, import.meta.url));
  res.writeHead(200, { 'content-type': type, 'cache-control': 'no-cache', 'content-security-policy': CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' });
  res.end(body);
}

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

async function readBody(req, limit) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > limit) throw new PageError(413, `The request body is larger than ${limit} bytes.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function readJson(req) {
  // A cross-site form or `text/plain` fetch needs no preflight; `application/json` does.
  const type = req.headers['content-type']?.split(';')[0].trim().toLowerCase();
  if (type !== 'application/json') throw new PageError(415, 'Send the request body as JSON, with content-type: application/json.');
  const text = (await readBody(req, MAX_BODY_BYTES)).toString('utf8');
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    throw new PageError(400, 'The request body is not JSON.');
  }
}
