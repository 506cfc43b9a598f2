// The client side of one full flow against each kind of server, run from the benchmark's own
// process: the wallet's cryptography (request verification, KB-JWT, encryption) never counts
// against the server being measured.
import { CompactEncrypt, decodeJwt, importJWK } from 'jose';
import { PID_QUERY } from './constants.mjs';

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

const codeOf = (redirectUri) => new URL(redirectUri).searchParams.get('response_code') ?? new URLSearchParams(new URL(redirectUri).hash.slice(1)).get('response_code');

/** create → request object → encrypted SD-JWT VC + KB-JWT (direct_post.jwt) → resolve, against the authorizer. */
export function oursFlow({ origin, apiKey, trustAnchor, resolveOrigin = origin }, wallet) {
  const api = `${origin}/authz/openid4/vp/v1_0`;
  return async () => {
    const created = JSON.parse(await call(`${api}/authorizations`, { method: 'POST', bearer: apiKey, json: { responseMode: 'direct_post.jwt', profile: 'haip', query: PID_QUERY } }));
    const request = await wallet.receive(created.authorizeUrl, { verifierTrustAnchors: [trustAnchor] });
    const sent = await wallet.respond(request, { enc: 'A128GCM' });
    if (sent.status !== 200) throw new Error(`wallet response refused: ${sent.status} ${JSON.stringify(sent.body)}`);
    const resolved = JSON.parse(await call(`${resolveOrigin}/authz/openid4/vp/v1_0/response-code/resolve`, { method: 'POST', bearer: apiKey, json: { response_code: codeOf(sent.body.redirect_uri), authorization_id: created.authorizationId } }));
    if (resolved.status !== 'authorized') throw new Error(`not authorized: ${JSON.stringify(resolved).slice(0, 300)}`);
  };
}

/** The same flow against the hand-built peer (bench/peer/server.mjs). */
export function peerFlow({ origin, trustAnchor }, wallet) {
  return async () => {
    const created = JSON.parse(await call(`${origin}/create`, { method: 'POST', json: {} }));
    const request = await wallet.receive(created.authorizeUrl, { verifierTrustAnchors: [trustAnchor] });
    const sent = await wallet.respond(request, { enc: 'A128GCM' });
    if (sent.status !== 200) throw new Error(`peer refused the response: ${sent.status} ${JSON.stringify(sent.body)}`);
    const resolved = JSON.parse(await call(`${origin}/resolve`, { method: 'POST', json: { response_code: codeOf(sent.body.redirect_uri) } }));
    if (resolved.claims?.given_name === undefined) throw new Error(`peer resolved no claims: ${JSON.stringify(resolved).slice(0, 300)}`);
  };
}

/**
 * The same round trips against the floor (lib/floor.mjs). `payload` is a real wallet response
 * (vp_token with an SD-JWT VC + KB-JWT), encrypted here to each request's own key.
 */
export function floorFlow({ origin }, payload) {
  const plaintext = new TextEncoder().encode(JSON.stringify(payload));
  return async () => {
    const { id } = JSON.parse(await call(`${origin}/floor/create`, { method: 'POST', json: {} }));
    const jwt = await call(`${origin}/floor/request?id=${id}`);
    const jwk = decodeJwt(jwt).client_metadata.jwks.keys[0];
    const jwe = await new CompactEncrypt(plaintext).setProtectedHeader({ alg: 'ECDH-ES', enc: 'A128GCM', kid: jwk.kid }).encrypt(await importJWK(jwk, 'ECDH-ES'));
    await call(`${origin}/floor/response?id=${id}`, { method: 'POST', form: { response: jwe } });
    await call(`${origin}/floor/resolve`, { method: 'POST', json: { response_code: 'x' } });
  };
}

/** A real wallet response payload for the floor: one flow's presentation, built but not sent. */
export async function walletPayload(server, wallet) {
  const api = `${server.origin}/authz/openid4/vp/v1_0`;
  const created = JSON.parse(await call(`${api}/authorizations`, { method: 'POST', bearer: server.apiKey, json: { responseMode: 'direct_post.jwt', profile: 'haip', query: PID_QUERY } }));
  const request = await wallet.receive(created.authorizeUrl, { verifierTrustAnchors: [server.trustAnchor] });
  return (await wallet.createResponse(request, { enc: 'A128GCM' })).payload;
}

const WARMUP_FLOWS = Number(process.env.BENCH_FLOW_WARMUP ?? 60);

/**
 * Run `flow` from `concurrency` clients for `seconds` (after `warmup` flows, BENCH_FLOW_WARMUP) and read the server's
 * CPU time around it, and any `counters` (name → async reading), reported per flow. Every flow
 * must succeed: a failure stops the measurement.
 */
export async function measureFlows(server, flow, { seconds, concurrency, warmup = WARMUP_FLOWS, counters = {} }) {
  // Verification code is large: until the JIT has optimised it, a flow costs several times more.
  await Promise.all(Array.from({ length: concurrency }, async (_, i) => {
    for (let n = i; n < warmup; n += concurrency) await flow();
  }));
  const countersBefore = await Promise.all(Object.values(counters).map((read) => read()));
  const cpuBefore = await server.cpuMicros();
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
  const elapsedS = (performance.now() - started) / 1000;
  const cpuMs = ((await server.cpuMicros()) - cpuBefore) / 1000;
  const perFlow = {};
  for (const [i, [name, read]] of Object.entries(counters).entries()) perFlow[`${name}PerFlow`] = +(((await read()) - countersBefore[i]) / flows).toFixed(1);
  return {
    ...perFlow, flows, seconds: +elapsedS.toFixed(2), flowsPerSecond: +(flows / elapsedS).toFixed(1), serverCpuMsPerFlow: +(cpuMs / flows).toFixed(3), serverCpuShare: +(cpuMs / 1000 / elapsedS).toFixed(2) };
}
