// The quick-start demo: an authorizer on the web-standard fetch handler behind node:http, the
// in-process validator/verifier, a generated dev signing key and dev issuer, and the test wallet
// standing in for a phone so a full flow can be watched end to end.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { createAuthorizer, generateDevSigningKey, resolveCorsConfig } from '@vp-authorizer/core';
import { appendVary, corsDecision } from '@vp-authorizer/core/http';
import { localValidator, localVerifier } from '@vp-authorizer/local';
import { allowInsecureUrlsForTests, createTestIssuer, createTestWallet } from '@vp-authorizer/testing';
import { configFromEnv, instanceConfigFromEnv, storeFromConfig } from '../shared/config-from-env.mjs';
import { demoPage } from './page.mjs';

const PID_QUERY = {
  credentials: [
    { id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: [{ path: ['given_name'] }, { path: ['family_name'] }, { path: ['birthdate'] }] },
  ],
};

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
  const { signing } = await generateDevSigningKey({ commonName: 'vp-authorizer demo verifier' });
  const issuer = await createTestIssuer({ commonName: 'vp-authorizer demo issuer' });
  const wallet = await createTestWallet();
  await wallet.addSdJwtVc(issuer, { vct: 'urn:eudi:pid:1', claims: { given_name: 'Erika', family_name: 'Mustermann', birthdate: '1964-08-12', nationality: 'DE' } });

  let authorizer;
  const server = createServer((req, res) => route(req, res).catch((error) => {
    console.error(error);
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
    res.end('{"message":"demo error"}');
  }));
  await new Promise((resolve, reject) => server.once('error', reject).listen(port ?? config.port, host ?? config.host, resolve));
  const { store, close: closeStore } = await storeFromConfig(config);
  const origin = `http://${host ?? config.host}:${server.address().port}`;
  const publicBaseUrl = config.publicBaseUrl ?? `${origin}/authz`;
  // The demo issuer is always trusted (its PID sits in the test wallet), and so are the roots you set.
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
        validator: localValidator({ trustedIssuers: trusted }),
        verifier: localVerifier({ trustAnchors: trusted }),
        // AUTHZ_REDIRECT_URI replaces the demo's own callback page.
        config: instanceConfigFromEnv(config, { redirectUri: `${origin}/demo/callback` }),
      },
    ],
    onEvent: (event) => console.log(`  event ${event.type} ${event.authorizationId.slice(0, 8)}… → ${event.status}`),
  });

  const rp = (path, body) =>
    authorizer.fetch(new Request(`${origin}/authz${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    })).then((r) => r.json());

  async function route(req, res) {
    const url = new URL(req.url, origin);
    if (url.pathname.startsWith('/authz/') || url.pathname === '/authz') return bridge(req, res);
    if (req.method === 'GET' && url.pathname === '/') return send(res, 200, demoPage(), 'text/html; charset=utf-8');
    // The relying party's own backend: it holds the API key, the page never sees it.
    if (req.method === 'POST' && url.pathname === '/demo/start') {
      return send(res, 200, await rp('/openid4/vp/v1_0/authorizations', { responseMode: 'direct_post.jwt', profile: 'haip', query: { type: 'DCQL', dcql: PID_QUERY } }));
    }
    if (req.method === 'GET' && url.pathname.startsWith('/demo/status/')) {
      return send(res, 200, await rp(`/openid4/vp/v1_0/authorizations/${encodeURIComponent(url.pathname.slice(13))}/status`));
    }
    // Stand-in for a phone wallet: fetch the request, present the PID, follow nothing.
    if (req.method === 'POST' && url.pathname === '/demo/wallet') {
      const { authorizeUrl } = JSON.parse(await readText(req));
      const request = await wallet.receive(authorizeUrl, { verifierTrustAnchors: [signing.trustAnchor] });
      const result = await wallet.respond(request);
      return send(res, 200, { walletGot: result.status, redirect_uri: result.body?.redirect_uri ?? null });
    }
    // Where the wallet is sent afterwards: resolve the one-time code, then read the claims.
    if (req.method === 'GET' && url.pathname === '/demo/callback') {
      const resolved = await rp('/openid4/vp/v1_0/response-code/resolve', { response_code: url.searchParams.get('response_code') ?? '' });
      const credentials = resolved.authorization_id ? await rp(`/openid4/vp/v1_0/authorizations/${resolved.authorization_id}/credentials`) : null;
      return send(res, 200, { resolved, credentials });
    }
    return send(res, 404, { message: 'not found' });
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
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.from(await readText(req));
    const response = await authorizer.fetch(new Request(new URL(req.url, origin), { method: req.method, headers: req.headers, ...(body ? { body } : {}) }));
    res.writeHead(response.status, withCors(Object.fromEntries(response.headers)));
    res.end(Buffer.from(await response.arrayBuffer()));
  }

  return {
    origin,
    apiKey,
    config,
    publicBaseUrl,
    trustAnchorPem: signing.trustAnchor,
    async close() {
      await authorizer.close();
      await closeStore();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function send(res, status, body, type = 'application/json') {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

async function readText(req) {
  let text = '';
  for await (const chunk of req) {
    text += chunk;
    if (text.length > 1_000_000) throw new Error('body too large');
  }
  return text;
}
