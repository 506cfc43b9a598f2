#!/usr/bin/env node
// The core's typed methods and its fetch handler in process, each beside a baseline of the
// irreducible work of that path measured in the same process (a ratio, which travels across
// machines where absolute times do not). Pass-through clients: verification is not in these,
// except in the last section, which runs @vp-authorizer/local's validator and verifier on one
// real wallet response beside the node:crypto work a verifier cannot avoid for it.
//   BENCH_ITERATIONS (200), BENCH_ROUNDS (5): the median of the rounds is reported.
import { CompactEncrypt, SignJWT, compactDecrypt, decodeJwt, generateKeyPair, importJWK } from 'jose';
import { isMain, printJson } from './lib/main.mjs';
import { measure, ratio } from './lib/measure.mjs';

export async function run() {
  const { createAuthorizer, memoryStore, passThroughValidator, passThroughVerifier } = await import('@vp-authorizer/core');
  const { generateDevSigningKey } = await import('@vp-authorizer/keys');
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

  // 6. Routes anyone can call without an API key, against the cheapest one through the same handler.
  {
    const get = (path) => async () => {
      const response = await authorizer.fetch(new Request(`https://rp.example${path}`));
      if (!response.ok) throw new Error(`${path} answered ${response.status}`);
      await response.arrayBuffer();
    };
    const baseline = await measure('authorizer.fetch(GET /health) (baseline)', get('/health'), opts);
    for (const [title, path] of [
      ['Public: JWKS', '/openid4/vp/v1_0/jwks'],
      ['Public: OpenID configuration', '/openid4/vp/v1_0/.well-known/openid-configuration'],
      ['Public: OpenAPI document', '/openapi.json'],
    ]) {
      section(title, baseline, await measure(`authorizer.fetch(GET ${path})`, get(path), opts));
    }
  }

  await authorizer.close();

  section('Verify an SD-JWT VC presentation (local validator ∥ verifier)', ...(await localClientsOnOneResponse(opts)));

  return { iterations: ITER, rounds: ROUNDS, results };
}

/**
 * The validate and verify calls the authorizer made for one real encrypted SD-JWT VC + KB-JWT
 * response from the test wallet (HAIP, x5c issuer), captured and replayed in a warm loop; the
 * baseline is the verification cryptography of the floor for the same presentation with
 * node:crypto (parse the x5c leaf and check it under the issuer's root, the issuer's and the
 * KB-JWT's ES256 signatures, the cnf JWK import). Inside a flow the same calls cost more (the
 * full-flow table's pass-through column shows how much): this row is their cost on warm caches.
 */
async function localClientsOnOneResponse(opts) {
  const { X509Certificate, createPublicKey, verify } = await import('node:crypto');
  const { createAuthorizer, memoryStore } = await import('@vp-authorizer/core');
  const { generateDevSigningKey } = await import('@vp-authorizer/keys');
  const { localValidator, localVerifier } = await import('@vp-authorizer/local');
  const { createTestIssuer, createTestWallet } = await import('@vp-authorizer/testing');
  const issuer = await createTestIssuer();
  const dev = await generateDevSigningKey();
  const validator = localValidator({ trustedIssuers: [issuer.rootCertificatePem] });
  const verifier = localVerifier({ trustAnchors: [issuer.rootCertificatePem], statusList: { enabled: false } });
  const seen = {};
  const base = 'https://verifier.example';
  const authorizer = createAuthorizer({
    publicBaseUrl: base,
    sweepIntervalMs: 0,
    store: memoryStore({ sweepIntervalMs: 0 }),
    instances: [
      {
        id: 'bench',
        apiKeys: ['bench-api-key-0001'],
        signing: dev.signing,
        config: { openId4vp: { redirectUri: 'https://rp.example/cb' } },
        validator: { validate: (input, options) => validator.validate((seen.validate = input), options) },
        verifier: { supportedAlgorithms: verifier.supportedAlgorithms, verifyIdToken: verifier.verifyIdToken, verify: (input, options) => verifier.verify((seen.verify = input), options) },
      },
    ],
  });
  const wallet = await createTestWallet();
  await wallet.addSdJwtVc(issuer, { vct: 'urn:eudi:pid:1', claims: { given_name: 'Erika', family_name: 'Mustermann' } });
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    return request.url.startsWith(base) ? authorizer.fetch(request) : realFetch(input, init);
  };
  try {
    const query = { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: [{ path: ['given_name'] }, { path: ['family_name'] }] }] } };
    const created = await authorizer.createAuthorization('bench', { responseMode: 'direct_post.jwt', profile: 'haip', query });
    const request = await wallet.receive(created.authorizeUrl, { verifierTrustAnchors: [dev.rootCertificatePem] });
    const answered = await wallet.respond(request, { enc: 'A128GCM' });
    if (answered.status !== 200 || !seen.validate || !seen.verify) throw new Error(`the wallet response was not verified: ${answered.status}`);
  } finally {
    globalThis.fetch = realFetch;
    await authorizer.close();
  }

  const parts = seen.verify.presentations[0].raw.split('~');
  const [issuerJwt, kbJwt] = [parts[0], parts[parts.length - 1]];
  const json = (segment) => JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  const es256 = (compact, key) => {
    const end = compact.lastIndexOf('.');
    return verify('sha256', Buffer.from(compact.slice(0, end)), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(compact.slice(end + 1), 'base64url'));
  };
  const root = new X509Certificate(issuer.rootCertificatePem);
  const baseline = await measure('x5c leaf check + issuer and KB-JWT ES256 + cnf import, node:crypto (baseline)', async () => {
    const leaf = new X509Certificate(Buffer.from(json(issuerJwt.split('.')[0]).x5c[0], 'base64'));
    if (!leaf.verify(root.publicKey) || !es256(issuerJwt, leaf.publicKey) || !es256(kbJwt, createPublicKey({ key: json(issuerJwt.split('.')[1]).cnf.jwk, format: 'jwk' }))) throw new Error('baseline: a signature did not verify');
  }, opts);
  const signal = new AbortController().signal;
  const measured = await measure('localValidator().validate ∥ localVerifier().verify on that response', async () => {
    const [validated, verified] = await Promise.all([validator.validate(seen.validate, { signal }), verifier.verify(seen.verify, { signal })]);
    if ([...validated, ...verified].some((r) => r.error)) throw new Error('a policy failed on the honest response');
  }, opts);
  return [baseline, measured];
}

if (isMain(import.meta.url)) printJson(await run());
