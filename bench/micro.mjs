#!/usr/bin/env node
// The core's typed methods and its fetch handler in process, each beside a baseline of the
// irreducible work of that path measured in the same process (a ratio, which travels across
// machines where absolute times do not). Pass-through clients: verification is not in these.
//   BENCH_ITERATIONS (200), BENCH_ROUNDS (5): the median of the rounds is reported.
import { CompactEncrypt, SignJWT, compactDecrypt, decodeJwt, generateKeyPair, importJWK } from 'jose';
import { isMain, printJson } from './lib/main.mjs';
import { measure, ratio } from './lib/measure.mjs';

export async function run() {
  const { createAuthorizer, generateDevSigningKey, memoryStore, passThroughValidator, passThroughVerifier } = await import('@vp-authorizer/core');
  const ITER = Number(process.env.BENCH_ITERATIONS ?? 200);
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
  const WARMUP = Math.max(20, Math.floor(ITER / 4));
  const opts = { iterations: ITER, rounds: ROUNDS, warmup: WARMUP };
  const NEEDED = ITER * ROUNDS + WARMUP;

  const { signing } = await generateDevSigningKey();
  const authorizer = createAuthorizer({
    publicBaseUrl: 'https://rp.example/authz',
    sweepIntervalMs: 0,
    store: memoryStore({ sweepIntervalMs: 0 }),
    instances: [{ id: 'bench', apiKeys: ['bench-api-key-0001'], signing, validator: passThroughValidator(), verifier: passThroughVerifier(), config: { openId4vp: { redirectUri: 'https://rp.example/cb' } } }],
  });
  const query = { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] } }] } };
  const issuerKey = (await generateKeyPair('ES256')).privateKey;
  const sdJwt = `${await new SignJWT({ vct: 'urn:eudi:pid:1', iss: 'https://issuer.example', given_name: 'Erika' }).setProtectedHeader({ alg: 'ES256', typ: 'dc+sd-jwt' }).sign(issuerKey)}~`;

  async function encryptFor(requestObject, payload) {
    const jwk = decodeJwt(requestObject).client_metadata.jwks.keys[0];
    return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(payload))).setProtectedHeader({ alg: 'ECDH-ES', enc: 'A256GCM', kid: jwk.kid }).encrypt(await importJWK(jwk, 'ECDH-ES'));
  }

  const results = [];
  const section = (title, baseline, measured) => results.push({ title, baseline, measured, ratio: ratio(measured, baseline) });

  // 1. Create: the irreducible work is one ES256 signature + one P-256 key generation.
  {
    const baseline = await measure('ES256 sign + P-256 keygen (baseline)', async () => {
      await generateKeyPair('ECDH-ES', { extractable: true });
      await new SignJWT({ a: 1 }).setProtectedHeader({ alg: 'ES256' }).sign(issuerKey);
    }, opts);
    const measured = await measure('createAuthorization (DCQL, direct_post.jwt)', () => authorizer.createAuthorization('bench', { responseMode: 'direct_post.jwt', query }), opts);
    section('Create an authorization', baseline, measured);
  }

  // 2. Wallet response: decrypt + format + validate ∥ verify (pass-through) + CAS claim/commit + code.
  {
    const prepared = [];
    for (let i = 0; i < NEEDED; i++) {
      const created = await authorizer.createAuthorization('bench', { responseMode: 'direct_post.jwt', query });
      const id = created.authorizationId;
      const ro = await authorizer.getRequestObject(id, {});
      const state = decodeJwt(ro).state;
      prepared.push({ id, response: await encryptFor(ro, { vp_token: { pid: [sdJwt] }, state }) });
    }
    const { privateKey, publicKey } = await generateKeyPair('ECDH-ES');
    const jwe = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify({ vp_token: { pid: [sdJwt] }, state: 'x' }))).setProtectedHeader({ alg: 'ECDH-ES', enc: 'A256GCM' }).encrypt(publicKey);
    const baseline = await measure('ECDH-ES JWE decrypt + JSON.parse (baseline)', async () => JSON.parse(new TextDecoder().decode((await compactDecrypt(jwe, privateKey)).plaintext)), opts);
    const measured = await measure('submitWalletResponse (direct_post.jwt, pass-through clients)', (i) => authorizer.submitWalletResponse(prepared[i].id, 'direct_post.jwt', { response: prepared[i].response }), opts);
    section('Accept a wallet response', baseline, measured);
  }

  // 3. Resolve a response code: consume once from the store + read the record.
  {
    const codes = [];
    for (let i = 0; i < NEEDED; i++) {
      const created = await authorizer.createAuthorization('bench', { responseMode: 'direct_post', query });
      const ro = await authorizer.getRequestObject(created.authorizationId, {});
      const { redirect_uri } = await authorizer.submitWalletResponse(created.authorizationId, 'direct_post', { vp_token: JSON.stringify({ pid: [sdJwt] }), state: decodeJwt(ro).state });
      codes.push(new URL(redirect_uri).searchParams.get('response_code'));
    }
    const map = new Map(codes.map((c) => [c, { id: c }]));
    const baseline = await measure('Map get + delete (baseline)', async (i) => {
      const v = map.get(codes[i]);
      map.delete(codes[i]);
      return v;
    }, opts);
    const measured = await measure('resolveResponseCode (memory store)', (i) => authorizer.resolveResponseCode('bench', codes[i]), opts);
    section('Resolve a response code', baseline, measured);
  }

  // 4. The fetch handler's own overhead on the cheapest route.
  {
    // The baseline builds the same Request and a Response, so only routing and the handler remain.
    const baseline = await measure('new Request + new Response(204) (baseline)', async () => (new Request('https://rp.example/health'), new Response(null, { status: 204 })), { ...opts, iterations: ITER * 10 });
    const measured = await measure('authorizer.fetch(GET /health)', () => authorizer.fetch(new Request('https://rp.example/health')), { ...opts, iterations: ITER * 10 });
    section('fetch handler routing', baseline, measured);
  }

  // 5. Create through the fetch handler against the typed method: what HTTP parsing and rendering add.
  {
    const init = { method: 'POST', headers: { authorization: 'Bearer bench-api-key-0001', 'content-type': 'application/json' }, body: JSON.stringify({ responseMode: 'direct_post.jwt', query }) };
    const baseline = await measure('createAuthorization (typed method, baseline)', () => authorizer.createAuthorization('bench', { responseMode: 'direct_post.jwt', query }), opts);
    const measured = await measure('authorizer.fetch(POST /authorizations)', async () => {
      const response = await authorizer.fetch(new Request('https://rp.example/openid4/vp/v1_0/authorizations', init));
      if (response.status !== 201) throw new Error(`create answered ${response.status}`);
      await response.arrayBuffer();
    }, opts);
    section('Create through the fetch handler', baseline, measured);
  }

  await authorizer.close();

  return { iterations: ITER, rounds: ROUNDS, results };
}

if (isMain(import.meta.url)) printJson(await run());
