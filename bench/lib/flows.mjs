// The client side of one full flow against each kind of server, run from the benchmark's own
// process: the wallet's cryptography (request verification, KB-JWT, encryption) never counts
// against the server being measured, and the benchmark's own CPU per flow is reported beside the
// server's so that the clients' work can be compared too.
import { CompactEncrypt, decodeJwt, importJWK } from 'jose';
import { PID_QUERY } from './constants.mjs';
import { httpCall } from './http-client.mjs';

async function call(url, { method = 'GET', json, form, bearer } = {}) {
  const headers = {};
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  let body;
  if (json !== undefined) [headers['content-type'], body] = ['application/json', JSON.stringify(json)];
  if (form !== undefined) [headers['content-type'], body] = ['application/x-www-form-urlencoded', new URLSearchParams(form).toString()];
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  if (response.status >= 400) throw new Error(`${method} ${url} → ${response.status} ${text.slice(0, 200)}`);
  return text;
}

/** The bench wallet's flows make their own calls with the same light client (node:http). */
async function lightCall(url, options) {
  const { status, text } = await httpCall(url, options);
  if (status >= 400) throw new Error(`${options?.method ?? 'GET'} ${url} → ${status} ${text.slice(0, 200)}`);
  return text;
}

const codeOf = (redirectUri) => new URL(redirectUri).searchParams.get('response_code') ?? new URLSearchParams(new URL(redirectUri).hash.slice(1)).get('response_code');

/**
 * One flow driven by the bench wallet (bench-wallet.mjs), the same client work against every kind
 * of server: `create()` → `{ authorizeUrl, ... }`, the wallet fetches and checks the request object
 * and posts its encrypted response, `resolve(code, created)` must succeed.
 */
function benchWalletFlow(wallet, create, resolve) {
  return async () => {
    const created = await create();
    const answer = await wallet.respond(await wallet.receive(created.authorizeUrl));
    await resolve(codeOf(answer.redirect_uri), created);
  };
}

/** create → request object → encrypted SD-JWT VC + KB-JWT (direct_post.jwt) → resolve, against the authorizer. */
export function oursFlow({ origin, apiKey, resolveOrigin = origin }, wallet) {
  const api = `${origin}/authz/openid4/vp/v1_0`;
  return benchWalletFlow(
    wallet,
    async () => JSON.parse(await lightCall(`${api}/authorizations`, { method: 'POST', bearer: apiKey, json: { responseMode: 'direct_post.jwt', profile: 'haip', query: PID_QUERY } })),
    async (code, created) => {
      const resolved = JSON.parse(await lightCall(`${resolveOrigin}/authz/openid4/vp/v1_0/response-code/resolve`, { method: 'POST', bearer: apiKey, json: { response_code: code, authorization_id: created.authorizationId } }));
      if (resolved.status !== 'authorized') throw new Error(`not authorized: ${JSON.stringify(resolved).slice(0, 300)}`);
    },
  );
}

/** The same flow against the floor (lib/floor.mjs). */
export function floorFlow({ origin }, wallet) {
  return benchWalletFlow(
    wallet,
    async () => JSON.parse(await lightCall(`${origin}/floor/create`, { method: 'POST', json: {} })),
    async (code) => {
      const resolved = JSON.parse(await lightCall(`${origin}/floor/resolve`, { method: 'POST', json: { response_code: code } }));
      if (resolved.status !== 'authorized') throw new Error(`floor did not authorize: ${JSON.stringify(resolved)}`);
    },
  );
}

/** The same flow against the hand-built peer (bench/peer/server.mjs). */
export function peerFlow({ origin }, wallet) {
  return benchWalletFlow(
    wallet,
    async () => JSON.parse(await lightCall(`${origin}/create`, { method: 'POST', json: {} })),
    async (code) => {
      const resolved = JSON.parse(await lightCall(`${origin}/resolve`, { method: 'POST', json: { response_code: code } }));
      if (resolved.claims?.given_name === undefined) throw new Error(`peer resolved no claims: ${JSON.stringify(resolved).slice(0, 300)}`);
    },
  );
}

// The method used until the bench wallet: the authorizer and the peer driven by the real test
// wallet (@vp-authorizer/testing, several ms of client CPU per flow), the floor by a light client.
// Kept for one release of the report so the change of method can be seen; see README.md.

/** Against the authorizer with the test wallet (also what redis.mjs drives both processes with). */
export function testWalletOursFlow({ origin, apiKey, trustAnchor, resolveOrigin = origin }, testWallet) {
  const api = `${origin}/authz/openid4/vp/v1_0`;
  return async () => {
    const created = JSON.parse(await call(`${api}/authorizations`, { method: 'POST', bearer: apiKey, json: { responseMode: 'direct_post.jwt', profile: 'haip', query: PID_QUERY } }));
    const request = await testWallet.receive(created.authorizeUrl, { verifierTrustAnchors: [trustAnchor] });
    const sent = await testWallet.respond(request, { enc: 'A128GCM' });
    if (sent.status !== 200) throw new Error(`wallet response refused: ${sent.status} ${JSON.stringify(sent.body)}`);
    const resolved = JSON.parse(await call(`${resolveOrigin}/authz/openid4/vp/v1_0/response-code/resolve`, { method: 'POST', bearer: apiKey, json: { response_code: codeOf(sent.body.redirect_uri), authorization_id: created.authorizationId } }));
    if (resolved.status !== 'authorized') throw new Error(`not authorized: ${JSON.stringify(resolved).slice(0, 300)}`);
  };
}

/** Against the peer with the test wallet. */
export function testWalletPeerFlow({ origin, trustAnchor }, testWallet) {
  return async () => {
    const created = JSON.parse(await call(`${origin}/create`, { method: 'POST', json: {} }));
    const request = await testWallet.receive(created.authorizeUrl, { verifierTrustAnchors: [trustAnchor] });
    const sent = await testWallet.respond(request, { enc: 'A128GCM' });
    if (sent.status !== 200) throw new Error(`peer refused the response: ${sent.status} ${JSON.stringify(sent.body)}`);
    const resolved = JSON.parse(await call(`${origin}/resolve`, { method: 'POST', json: { response_code: codeOf(sent.body.redirect_uri) } }));
    if (resolved.claims?.given_name === undefined) throw new Error(`peer resolved no claims: ${JSON.stringify(resolved).slice(0, 300)}`);
  };
}

/**
 * Against the floor started with `light: true`: `payload` is one real wallet response (vp_token
 * with an SD-JWT VC + KB-JWT, built once), re-encrypted with jose to each request's own key.
 */
export function lightFloorFlow({ origin }, payload) {
  const plaintext = new TextEncoder().encode(JSON.stringify(payload));
  return async () => {
    const { id } = JSON.parse(await call(`${origin}/floor/create`, { method: 'POST', json: {} }));
    const jwt = await call(`${origin}/floor/request?id=${id}`);
    const jwk = decodeJwt(jwt).client_metadata.jwks.keys[0];
    const jwe = await new CompactEncrypt(plaintext).setProtectedHeader({ alg: 'ECDH-ES', enc: 'A128GCM', kid: jwk.kid }).encrypt(await importJWK(jwk, 'ECDH-ES'));
    const answer = JSON.parse(await call(`${origin}/floor/response?id=${id}`, { method: 'POST', form: { response: jwe } }));
    await call(`${origin}/floor/resolve`, { method: 'POST', json: { response_code: codeOf(answer.redirect_uri) } });
  };
}

/** A real wallet response payload for the light floor client: one flow's presentation, built but not sent. */
export async function walletPayload(server, testWallet) {
  const api = `${server.origin}/authz/openid4/vp/v1_0`;
  const created = JSON.parse(await call(`${api}/authorizations`, { method: 'POST', bearer: server.apiKey, json: { responseMode: 'direct_post.jwt', profile: 'haip', query: PID_QUERY } }));
  const request = await testWallet.receive(created.authorizeUrl, { verifierTrustAnchors: [server.trustAnchor] });
  return (await testWallet.createResponse(request, { enc: 'A128GCM' })).payload;
}

// One server measured alone (the previous full-flow method, kept as it was): 60 flows first.
const WARMUP_FLOWS = 60;
// Servers measured side by side: until the JIT has optimised all of a server's code, which takes
// the authorizer far more flows than the floor (its ratio still fell slice after slice after 60
// and 600 flows), the comparison bills the warm-up of the larger code base, not its cost.
const INTERLEAVED_WARMUP_FLOWS = 2000;

/** `warmup` flows from `concurrency` clients: until the JIT has optimised verification, a flow costs several times more. */
async function warmUp(flow, concurrency, warmup) {
  await Promise.all(Array.from({ length: concurrency }, async (_, i) => {
    for (let n = i; n < warmup; n += concurrency) await flow();
  }));
}

/** One slice: `flow` from `concurrency` clients for `seconds`, with the server's and this process's CPU time around it. */
async function slice(server, flow, seconds, concurrency) {
  const cpuBefore = await server.cpuMicros();
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let flows = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        await flow();
        flows++;
      }
    }),
  );
  const elapsedMs = performance.now() - started;
  const client = process.cpuUsage(clientBefore);
  return { flows, elapsedMs, serverCpuMs: ((await server.cpuMicros()) - cpuBefore) / 1000, clientCpuMs: (client.user + client.system) / 1000 };
}

function perFlow({ flows, elapsedMs, serverCpuMs, clientCpuMs }) {
  return {
    flows,
    seconds: +(elapsedMs / 1000).toFixed(2),
    flowsPerSecond: +((flows * 1000) / elapsedMs).toFixed(1),
    serverCpuMsPerFlow: +(serverCpuMs / flows).toFixed(3),
    serverCpuShare: +(serverCpuMs / elapsedMs).toFixed(2),
    clientCpuMsPerFlow: +(clientCpuMs / flows).toFixed(3),
  };
}

/**
 * Run `flow` from `concurrency` clients for `seconds` (after `warmup` flows, 60 by default) and read the server's
 * CPU time around it, and any `counters` (name → async reading), reported per flow. Every flow
 * must succeed: a failure stops the measurement.
 */
export async function measureFlows(server, flow, { seconds, concurrency, warmup = WARMUP_FLOWS, counters = {} }) {
  await warmUp(flow, concurrency, warmup);
  const countersBefore = await Promise.all(Object.values(counters).map((read) => read()));
  const measured = await slice(server, flow, seconds, concurrency);
  const counted = {};
  for (const [i, [name, read]] of Object.entries(counters).entries()) counted[`${name}PerFlow`] = +(((await read()) - countersBefore[i]) / measured.flows).toFixed(1);
  return { ...counted, ...perFlow(measured) };
}

/**
 * Several servers measured in turn: each `{ server, flow }` is warmed up, then all of them run
 * `rounds` slices of `seconds / rounds` each, one after the other, and each result sums its own
 * slices (and lists its server CPU per flow slice by slice, `serverCpuMsPerFlowByRound`). Whatever else the machine does while the benchmark runs then falls on every server
 * alike, instead of on whichever ran during a neighbour's burst. Results come in `cells` order.
 */
export async function measureInterleaved(cells, { seconds, concurrency, rounds = 3, warmup = INTERLEAVED_WARMUP_FLOWS }) {
  for (const { flow } of cells) await warmUp(flow, concurrency, warmup);
  const totals = cells.map(() => ({ flows: 0, elapsedMs: 0, serverCpuMs: 0, clientCpuMs: 0 }));
  const perRound = cells.map(() => []);
  for (let round = 0; round < rounds; round++) {
    // Every other round in reverse, so that no server always follows the same neighbour.
    const order = [...cells.entries()];
    if (round % 2 === 1) order.reverse();
    for (const [i, { server, flow }] of order) {
      const measured = await slice(server, flow, seconds / rounds, concurrency);
      for (const key of Object.keys(measured)) totals[i][key] += measured[key];
      perRound[i].push(+(measured.serverCpuMs / measured.flows).toFixed(3));
    }
  }
  return totals.map((total, i) => ({ ...perFlow(total), serverCpuMsPerFlowByRound: perRound[i] }));
}
