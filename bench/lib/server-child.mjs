// Child-process entry of server-process.mjs. The first IPC message is the spec:
//   { kind: 'ours', framework, clients: 'local' | 'pass-through', issuerRootPem?, redisUrl? | postgresUrl? + postgresSchema?, bareRoutes? }
//     the authorizer under /authz through the framework's adapter (local = @vp-authorizer/local's
//     validator and verifier); bareRoutes adds the framework's own trivial JSON routes under /bare
//   { kind: 'floor', framework, issuerRootPem, light? }   the floor routes (floor.mjs) under /floor
//   { kind: 'peer', issuerRootPem }               the hand-built peer verifier (peer/server.mjs)
//   { kind: 'trivial' }                           plain node:http answering a fixed JSON body (wakeup-cost.mjs)
//   { kind: 'fastify-layers' }                    GET status and POST resolve at five depths (fastify-layers.mjs)
// It answers `{ origin, trustAnchor, apiKey, statusPath? }`, then `cpu`, `resources` and `memory` requests.
import { API_KEY, PID_QUERY } from './constants.mjs';
import { FRAMEWORKS, route, startFramework } from './frameworks.mjs';

// A normal exit on close, so that --cpu-prof (BENCH_SERVER_EXEC_ARGV) writes its profile.
process.once('SIGTERM', () => process.exit(0));
// And when the benchmark goes away without closing it (killed, crashed): no orphaned servers.
process.once('disconnect', () => process.exit(0));

process.once('message', async (spec) => {
  try {
    const started = await start(spec);
    process.on('message', (message) => {
      if (message === 'cpu') process.send(process.cpuUsage());
      // Voluntary context switches count the times the process went to sleep (idle) between events.
      else if (message === 'resources') process.send(process.resourceUsage());
      else if (message === 'memory') {
        globalThis.gc?.();
        process.send(process.memoryUsage());
      }
    });
    process.send(started);
  } catch (error) {
    process.send({ error: String(error?.stack ?? error) });
  }
});

async function start(spec) {
  if (spec.kind === 'trivial') return startTrivial();
  if (spec.kind === 'fastify-layers') return (await import('./fastify-layers.mjs')).startFastifyLayers();
  const { generateDevSigningKey } = await import('@vp-authorizer/keys');
  const dev = await generateDevSigningKey();
  const leafX5c = dev.leafCertificatePem.replace(/-----[^-]+-----|\s/g, '');
  if (spec.kind === 'peer') {
    const { startPeer } = await import('../peer/server.mjs');
    const peer = await startPeer({ signingJwk: dev.signing.privateKey, leafX5c, issuerRootPem: spec.issuerRootPem });
    return { origin: peer.origin, trustAnchor: dev.rootCertificatePem };
  }
  if (!FRAMEWORKS.includes(spec.framework)) throw new Error(`unknown framework ${spec.framework}`);
  if (spec.kind === 'floor') {
    const { floorRoutes } = await import('./floor.mjs');
    let origin;
    const routes = floorRoutes({ signingJwk: dev.signing.privateKey, leafX5c, issuerRootPem: spec.issuerRootPem, originOf: () => origin, light: spec.light === true });
    ({ origin } = await startFramework(spec.framework, { routes }));
    return { origin, trustAnchor: dev.rootCertificatePem };
  }
  const authorizerAt = (origin) => createBenchAuthorizer({ origin, signing: dev.signing, ...spec });
  const routes = spec.bareRoutes ? bareRoutes() : [];
  const { origin, authorizer } = await startFramework(spec.framework, { routes, authorizerAt });
  // One pending authorization whose status the GET benchmark reads.
  const created = await authorizer.createAuthorization('bench', { responseMode: 'direct_post.jwt', query: PID_QUERY });
  return { origin, trustAnchor: dev.rootCertificatePem, apiKey: API_KEY, statusPath: `/authz/openid4/vp/v1_0/authorizations/${created.authorizationId}/status` };
}

async function createBenchAuthorizer({ origin, signing, clients, issuerRootPem, redisUrl, postgresUrl, postgresSchema }) {
  const { createAuthorizer, memoryStore, passThroughValidator, passThroughVerifier } = await import('@vp-authorizer/core');
  let validator = passThroughValidator();
  let verifier = passThroughVerifier();
  if (clients === 'local') {
    const { localValidator, localVerifier } = await import('@vp-authorizer/local');
    validator = localValidator({ trustedIssuers: [issuerRootPem] });
    verifier = localVerifier({ trustAnchors: [issuerRootPem] });
  }
  let store = memoryStore({ sweepIntervalMs: 0 });
  if (redisUrl) {
    const { redisStore } = await import('@vp-authorizer/redis');
    store = redisStore({ url: redisUrl, keyPrefix: 'bench:' });
  }
  if (postgresUrl) {
    // The schema is migrated by the benchmark before the server starts.
    const { postgresStore } = await import('@vp-authorizer/postgres');
    store = postgresStore({ url: postgresUrl, schema: postgresSchema, cleanupIntervalMs: 0 });
  }
  const authorizer = createAuthorizer({
    publicBaseUrl: `${origin}/authz`,
    basePath: '/authz',
    sweepIntervalMs: 0,
    store,
    instances: [{ id: 'bench', apiKeys: [API_KEY], signing, validator, verifier, config: { openId4vp: { redirectUri: 'https://rp.example/cb' } } }],
  });
  await authorizer.ready();
  return authorizer;
}

/**
 * The framework's own trivial JSON routes, answering what the authorizer's status and resolve
 * routes answer in these benchmarks (a status object; a 404 error object after parsing the JSON body).
 */
function bareRoutes() {
  return [
    route('GET', '/bare/status', () => ({ status: 200, json: { status: 'pending', authorizationId: 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d', expiresAt: '2026-01-01T00:00:00.000Z' } })),
    route('POST', '/bare/resolve', ({ body }) => {
      JSON.parse(body);
      return { status: 404, json: { error: 'response_code.not_found', message: 'Unknown response code.' } };
    }),
  ];
}

/** The cheapest request node:http can serve: no body read, a fixed JSON answer. */
async function startTrivial() {
  const { createServer } = await import('node:http');
  const body = JSON.stringify({ ok: true });
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body));
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${server.address().port}` };
}
