/**
 * Wallet responses end to end in process: each case creates a fresh authorization, fetches its
 * request object (real per-request encryption key, real state), submits a fuzzed response
 * (plain form, real JWE with fuzzed payload, mangled JWE, wrong endpoint, duplicated parameters,
 * DC API bodies) and checks the state machine: a refused request leaves the authorization
 * pending; a claimed one ends rejected/error (nothing fuzzed can be a valid presentation) and is
 * answered 200, or 400 "not accepted" for a policy rejection; a terminal authorization never
 * changes again, whatever is submitted next.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anyString, contentType, hostileJson, jwtLike, key } from './__fixtures__/arbitraries.js';
import { RUNS } from './__fixtures__/fuzz-budget.js';
import {
  API_KEY,
  DCQL_MIXED,
  OTHER_KEY,
  PE_DEFINITION,
  V,
  createAuthorization,
  expectContract,
  fetchRequestObject,
  formBody,
  jsonBody,
  startFuzzAuthorizer,
  statusOf,
  type FuzzEnv,
} from './__fixtures__/fuzz-authorizer.js';
import { describeInput, fuzzAsync, measureAsync, reportTally } from './__fixtures__/fuzz-harness.js';
import { ecdhEsJwe } from './__fixtures__/jwe.js';
import { presentationValue, submission } from './__fixtures__/parser-arbitraries.js';

let env: FuzzEnv;
const outcomes = new Map<string, number>();
const tally = (k: string) => outcomes.set(k, (outcomes.get(k) ?? 0) + 1);

beforeAll(async () => {
  env = await startFuzzAuthorizer();
});
afterAll(async () => {
  console.log(`wallet responses: ${JSON.stringify(Object.fromEntries([...outcomes].sort()))}`);
  reportTally('wallet-responses');
  await env?.close();
});

const TERMINAL = ['rejected', 'error'];

/** Response parameters a wallet might send, right and wrong. */
const params = fc.record(
  {
    vp_token: fc.oneof(
      fc.dictionary(fc.constantFrom('pid', 'mdl', 'vc', 'd1', '__proto__', 'constructor'), fc.oneof(presentationValue, fc.array(presentationValue, { maxLength: 3 })), { maxKeys: 3 }),
      presentationValue,
      fc.array(presentationValue, { maxLength: 3 }),
    ),
    presentation_submission: fc.oneof(submission, submission.map((s) => ({ ...(s as object), definition_id: 'pd' }))),
    id_token: fc.oneof(jwtLike, hostileJson),
    error: fc.oneof(fc.constantFrom('access_denied', 'invalid_request', ''), hostileJson),
    error_description: anyString,
    extra: hostileJson,
  },
  { requiredKeys: [] },
);

const scenario = fc.record({
  kind: fc.constantFrom('direct_post', 'direct_post.jwt', 'pe'),
  endpoint: fc.constantFrom('same', 'same', 'same', 'other'),
  state: fc.constantFrom('correct', 'correct', 'correct', 'wrong', 'missing', 'duplicated'),
  params,
  /** How the parameters travel: as form fields (JSON-encoded where structured) or inside a JWE. */
  carrier: fc.constantFrom('form', 'form', 'jwe', 'jwe', 'jwe-wrong-kid', 'jwe-garbage'),
  enc: fc.constantFrom('A128GCM' as const, 'A256GCM' as const),
  type: fc.oneof({ weight: 8, arbitrary: fc.constant('application/x-www-form-urlencoded') }, { weight: 1, arbitrary: contentType }),
  junk: fc.array(fc.tuple(key, anyString), { maxLength: 2 }),
  /** Second submission: the same again, or a fresh well-formed error response. */
  replay: fc.constantFrom('same', 'error'),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

const asField = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

async function prepare(kind: Scenario['kind']) {
  const body =
    kind === 'pe'
      ? { responseMode: 'direct_post', responseType: 'vp_token id_token', query: { type: 'DIF.PresentationExchange', presentationDefinition: PE_DEFINITION } }
      : { responseMode: kind, query: { type: 'DCQL', dcql: DCQL_MIXED } };
  const created = await createAuthorization(env, body);
  const { claims } = await fetchRequestObject(env, created.authorizationId!);
  const jwk = (claims.client_metadata as { jwks?: { keys: (JsonWebKey & { kid: string })[] } } | undefined)?.jwks?.keys[0];
  return { id: created.authorizationId!, state: claims.state as string, mode: kind === 'pe' ? 'direct_post' : kind, jwk };
}

function formFor(s: Scenario, auth: Awaited<ReturnType<typeof prepare>>): string {
  const fields: [string, string][] = [];
  const payload: Record<string, unknown> = { ...s.params };
  delete payload.extra;
  if (s.state === 'correct' || s.state === 'duplicated') payload.state = auth.state;
  if (s.state === 'wrong') payload.state = `${auth.state}x`;
  if (s.carrier === 'form' || !auth.jwk) {
    for (const [k, v] of Object.entries(payload)) fields.push([k, asField(v)]);
  } else if (s.carrier === 'jwe-garbage') {
    fields.push(['response', asField(s.params.extra ?? 'x.y.z.w.v')]);
  } else {
    const plaintext = new TextEncoder().encode(JSON.stringify({ ...payload, ...(typeof s.params.extra === 'object' && s.params.extra ? s.params.extra : {}) }));
    const kid = s.carrier === 'jwe-wrong-kid' ? `${auth.jwk.kid}x` : auth.jwk.kid;
    fields.push(['response', ecdhEsJwe(auth.jwk, { header: { alg: 'ECDH-ES', enc: s.enc, kid }, cipherEnc: s.enc, plaintext })]);
  }
  // A repeated state is refused at the form parser (RFC 6749 section 3.1); junk fields are ignored.
  if (s.state === 'duplicated') fields.push(['state', auth.state]);
  fields.push(...s.junk);
  return new URLSearchParams(fields).toString();
}

async function submit(path: string, type: string, form: string) {
  return env.handle(env.req('POST', path, { key: null, type, body: formBody(form) }));
}

describe('wallet responses (direct_post, direct_post.jwt, PE) change state at most once', () => {
  it('a refused response leaves the authorization pending; a claimed one ends rejected or error; a terminal status never changes on replay, re-read or code resolution', { timeout: 150_000 }, async () => {
    await fuzzAsync('wallet-responses', RUNS.walletResponses, scenario, async (s) => {
      const auth = await prepare(s.kind);
      const endpoint = s.endpoint === 'same' ? auth.mode : auth.mode === 'direct_post' ? 'direct_post.jwt' : 'direct_post';
      const path = `${V}/${auth.id}/${endpoint}`;
      const form = formFor(s, auth);
      const { outcome } = await measureAsync('wallet response', () => `${endpoint} ${describeInput(form)}`, () => submit(path, s.type, form));
      expect(outcome.ok).toBe(true);
      const res = (outcome as { value: Awaited<ReturnType<typeof submit>> }).value;
      expectContract(path, 'POST', res);
      const after = await statusOf(env, auth.id);
      tally(`${res.status}:${after}`);
      const description = res.status === 200 ? '' : String((JSON.parse(res.body!) as { error_description?: unknown }).error_description);
      if (res.status !== 200 && after === 'pending') return;
      // A claimed response always ends terminal. The wallet gets 200, or 400 when a policy
      // rejected its presentation (the outcome is stored for the RP all the same).
      expect(TERMINAL, res.body).toContain(after);
      if (res.status !== 200) {
        expect(res.status, res.body).toBe(400);
        expect(after).toBe('rejected');
        expect(description).toMatch(/^The presentation was not accepted/);
      }
      const body = res.status === 200 ? (JSON.parse(res.body!) as { redirect_uri?: string }) : {};
      if (res.status === 200) expect(body.redirect_uri).toMatch(/^https:\/\/rp\.example\/callback\?response_code=[A-Za-z0-9_-]{22,}$/);

      // Replay (same response, or a well-formed error): refused, and nothing changes.
      const again = s.replay === 'same' ? form : new URLSearchParams({ error: 'access_denied', state: auth.state }).toString();
      const replay = await submit(path, 'application/x-www-form-urlencoded', again);
      expectContract(path, 'POST', replay);
      expect(replay.status, replay.body).toBeGreaterThanOrEqual(400);
      expect(await statusOf(env, auth.id)).toBe(after);
      // The other instance cannot see it; its owner still reads the same terminal status.
      const foreign = await env.handle(env.req('GET', `${V}/authorizations/${auth.id}/status`, { key: OTHER_KEY }));
      expect(foreign.status).toBe(404);
      const policy = await env.handle(env.req('GET', `${V}/authorizations/${auth.id}/policy-response`, { key: API_KEY }));
      expect(policy.status).toBe(200);
      expect((JSON.parse(policy.body!) as { data: unknown[] }).data.length).toBeGreaterThan(0);
      // The response code resolves once to the same terminal status, then never again.
      if (!body.redirect_uri) return;
      const code = new URL(body.redirect_uri).searchParams.get('response_code')!;
      const resolve = () => env.handle(env.req('POST', `${V}/response-code/resolve`, { type: 'application/json', body: jsonBody({ response_code: code }) }));
      const first = await resolve();
      expect(first.status, first.body).toBe(200);
      expect(JSON.parse(first.body!)).toEqual({ authorization_id: auth.id, status: after });
      expect((await resolve()).status).toBe(404);
      expect(await statusOf(env, auth.id)).toBe(after);
    });
    // Both branches of the state machine were exercised.
    expect(outcomes.get('400:pending') ?? 0).toBeGreaterThan(0);
    expect([...outcomes.keys()].filter((k) => /^\d+:(rejected|error)$/.test(k)).length).toBeGreaterThan(0);
  });
});

describe('DC API responses (dc_api, dc_api.jwt) change state at most once', () => {
  it('the RP-forwarded body is refused with a 4xx (authorization stays pending) or answered with its terminal status, which never changes afterwards', { timeout: 120_000 }, async () => {
    const dc = fc.record({
      mode: fc.constantFrom('dc_api', 'dc_api.jwt'),
      origin: fc.oneof({ weight: 5, arbitrary: fc.constantFrom('https://rp.example', 'https://rp.example', 'https://rp.example', 'https://evil.example', 'https://rp.example/', '') }, { weight: 1, arbitrary: anyString }),
      params,
      carrier: fc.constantFrom('plain', 'jwe', 'jwe-garbage'),
      wrap: fc.constantFrom('object', 'object', 'object', 'object', 'array', 'string', 'missing'),
      withToken: fc.constantFrom(true, true, true, false),
    });
    await fuzzAsync('dc-api-responses', RUNS.dcApiResponses, dc, async (s) => {
      const created = await createAuthorization(env, { responseMode: s.mode, protocol: 'openid4vp-v1-unsigned', expectedOrigins: ['https://rp.example'], query: { type: 'DCQL', dcql: DCQL_MIXED } });
      const jwk = (created as unknown as { digitalCredentialGetRequest: { data: { client_metadata: { jwks?: { keys: (JsonWebKey & { kid: string })[] } } } } }).digitalCredentialGetRequest.data.client_metadata.jwks?.keys[0];
      // Mostly with a vp_token, so that most cases get past the "neither vp_token nor error" check.
      const { extra, ...fields } = s.withToken ? { vp_token: {}, ...s.params } : s.params;
      let data: unknown = fields;
      if (s.carrier === 'jwe' && jwk) data = { response: ecdhEsJwe(jwk, { header: { alg: 'ECDH-ES', enc: 'A256GCM', kid: jwk.kid }, cipherEnc: 'A256GCM', plaintext: new TextEncoder().encode(JSON.stringify(fields)) }) };
      if (s.carrier === 'jwe-garbage') data = { response: extra ?? 'a.b.c.d.e' };
      const body = s.wrap === 'missing' ? { origin: s.origin } : { origin: s.origin, digitalCredentialGetResponse: s.wrap === 'array' ? [data] : s.wrap === 'string' ? JSON.stringify(data) : data };
      const path = `${V}/${created.authorizationId}/${s.mode}`;
      const send = () => env.handle(env.req('POST', path, { type: 'application/json', body: jsonBody(body) }));
      const { outcome } = await measureAsync('dc api response', () => describeInput(body), send);
      expect(outcome.ok).toBe(true);
      const res = (outcome as { value: Awaited<ReturnType<typeof send>> }).value;
      expectContract(path, 'POST', res);
      const after = await statusOf(env, created.authorizationId!);
      tally(`dc ${res.status}:${after}`);
      if (res.status !== 200) {
        expect(after).toBe('pending');
        return;
      }
      expect(JSON.parse(res.body!)).toEqual({ status: after });
      expect(TERMINAL).toContain(after);
      const replay = await send();
      expect(replay.status).toBeGreaterThanOrEqual(400);
      expectContract(path, 'POST', replay);
      expect(await statusOf(env, created.authorizationId!)).toBe(after);
    });
    expect([...outcomes.keys()].filter((k) => /^dc 200:(rejected|error)$/.test(k)).length).toBeGreaterThan(0);
  });
});
