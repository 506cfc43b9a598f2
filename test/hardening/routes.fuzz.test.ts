/**
 * Every route through authorizer.handle() in process: random methods, paths, ids, query strings,
 * bearer tokens, content types and bodies (raw bytes incl. invalid UTF-8, or values a host body
 * parser already produced). Each answer must meet the HTTP contract (never 5xx, stable error code
 * in the audience's shape) without an event-loop stall over the budget, and nothing may reach the
 * host's onError hook.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../packages/core/src/http/routes.js';
import { type CoreRequest } from '@vp-authorizer/core/http';
import { anyString, bearer, contentType, deepJsonText, formText, hostileJson, httpMethod, invalidUtf8, jwtLike, key } from './__fixtures__/arbitraries.js';
import { RUNS } from './__fixtures__/fuzz-budget.js';
import {
  API_KEY,
  DCQL_MIXED,
  DCQL_SD_JWT,
  OTHER_KEY,
  PE_DEFINITION,
  V,
  createAuthorization,
  expectContract,
  fetchRequestObject,
  startFuzzAuthorizer,
  type FuzzEnv,
} from './__fixtures__/fuzz-authorizer.js';
import { describeInput, fuzzAsync, measureAsync, reportTally } from './__fixtures__/fuzz-harness.js';
import { presentationValue, submission } from './__fixtures__/parser-arbitraries.js';

let env: FuzzEnv;
const ids: string[] = [];
const statuses = new Map<number, number>();

beforeAll(async () => {
  env = await startFuzzAuthorizer();
  // Records in every state and mode, plus one owned by the other instance.
  const jwtMode = await createAuthorization(env, { responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: DCQL_SD_JWT } });
  const plain = await createAuthorization(env, { responseMode: 'direct_post', query: { type: 'DCQL', dcql: DCQL_MIXED } });
  await fetchRequestObject(env, plain.authorizationId!);
  const pe = await createAuthorization(env, { responseMode: 'direct_post', responseType: 'vp_token id_token', query: { type: 'DIF.PresentationExchange', presentationDefinition: PE_DEFINITION } });
  await fetchRequestObject(env, pe.authorizationId!);
  const dc = await createAuthorization(env, { responseMode: 'dc_api', protocol: 'openid4vp-v1-unsigned', expectedOrigins: ['https://rp.example'], query: { type: 'DCQL', dcql: DCQL_SD_JWT } });
  const other = await createAuthorization(env, { responseMode: 'direct_post', query: { type: 'DCQL', dcql: DCQL_SD_JWT } }, OTHER_KEY);
  ids.push(jwtMode.authorizationId!, plain.authorizationId!, pe.authorizationId!, dc.authorizationId!, other.authorizationId!);
}, 60_000);

afterAll(async () => {
  console.log(`routes: status histogram ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
  reportTally('routes');
  await env?.close();
});

const TEMPLATES = [
  '/health',
  '/health/ready',
  `${V}/authorizations`,
  `${V}/authorizations/{id}/status`,
  `${V}/authorizations/{id}/policy-response`,
  `${V}/authorizations/{id}/credentials`,
  `${V}/authorizations/{id}/events`,
  `${V}/authorizations/{id}/jwt`,
  `${V}/authorizations/{id}/personal-data`,
  `${V}/response-code/resolve`,
  `${V}/{id}/direct_post`,
  `${V}/{id}/direct_post.jwt`,
  `${V}/{id}/dc_api`,
  `${V}/{id}/dc_api.jwt`,
  `${V}/.well-known/openid-configuration`,
  `${V}/jwks`,
  '/instances/oid4vp-trust-anchor',
  '/openapi.json',
];

it('the path templates cover every route in the table', () => {
  // A route added later without a template here would silently escape the fuzz.
  const concrete = TEMPLATES.map((t) => t.replace('{id}', 'x'));
  for (const route of ROUTES) expect(concrete.some((p) => route.pattern.test(p)), route.name).toBe(true);
});

const id = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(0, 1, 2, 3, 4).map((i) => () => ids[i]!) },
  { weight: 2, arbitrary: fc.constantFrom('x', '%ZZ', '%2F..%2F', '..', '__proto__', 'constructor', 'prototype', '%00', 'a'.repeat(300), '%F0%9F%98%80', '%ED%A0%80', ' ').map((s) => () => s) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((s) => () => encodeURIComponent(s)) },
);

const path = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(fc.constantFrom(...TEMPLATES), id).map(([t, i]) => () => t.replace('{id}', i())) },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.constantFrom('/', '', V, `${V}/`, `${V}/authorizations/`, '//health', '/health/', '/HEALTH', `${V}/authorizations//status`, `${V}/./jwks`, '/%2e%2e/health', `${V}/authorizations/a/b/status`),
      fc.string({ maxLength: 40 }).map((s) => `/${s}`),
    ).map((p) => () => p),
  },
);

const walletFields = fc.constantFrom('vp_token', 'state', 'response', 'presentation_submission', 'id_token', 'error', 'error_description', 'wallet_metadata', 'wallet_nonce', 'response_code');

const jsonValue = fc.oneof(
  hostileJson,
  fc.record({ origin: fc.oneof(fc.constant('https://rp.example'), anyString, hostileJson), digitalCredentialGetResponse: fc.oneof(fc.record({ vp_token: fc.oneof(presentationValue, hostileJson), response: jwtLike }, { requiredKeys: [] }), hostileJson) }, { requiredKeys: [] }),
  fc.record({ response_code: fc.oneof(anyString, hostileJson) }),
  fc.record({ responseMode: fc.constantFrom('direct_post', 'direct_post.jwt', 'dc_api'), query: fc.oneof(fc.constant({ type: 'DCQL', dcql: DCQL_SD_JWT }), hostileJson), __proto__: hostileJson }, { requiredKeys: ['responseMode'] }),
);

/** Near the 1 MiB limit: one huge string where a short one is expected. Built once, reused (constants). */
const HUGE = 'x'.repeat(900_000);
const hugeBodies = fc.constantFrom(
  JSON.stringify({ responseMode: 'direct_post', nonce: HUGE, query: { type: 'DCQL', dcql: DCQL_SD_JWT } }),
  JSON.stringify({ response_code: HUGE }),
  JSON.stringify({ origin: HUGE.slice(0, 5000), digitalCredentialGetResponse: { vp_token: { pid: [HUGE] } } }),
  `vp_token=${HUGE}&state=x`,
  `state=${HUGE}`,
  `response=${HUGE.slice(0, 300_000)}.${HUGE.slice(0, 300_000)}.a.b.c`,
  `wallet_metadata=${encodeURIComponent(JSON.stringify({ vp_formats_supported: { [HUGE]: {} } }))}`,
);

const body: fc.Arbitrary<CoreRequest['body'] | undefined> = fc.oneof(
  { weight: 8, arbitrary: fc.constant(undefined) },
  { weight: 24, arbitrary: jsonValue.map((v) => ({ kind: 'bytes' as const, bytes: new TextEncoder().encode(JSON.stringify(v) ?? '') })) },
  { weight: 24, arbitrary: formText([walletFields]).map((t) => ({ kind: 'bytes' as const, bytes: new TextEncoder().encode(t) })) },
  { weight: 8, arbitrary: invalidUtf8.map((bytes) => ({ kind: 'bytes' as const, bytes })) },
  { weight: 8, arbitrary: deepJsonText.map((t) => ({ kind: 'bytes' as const, bytes: new TextEncoder().encode(t) })) },
  // What express.json / urlencoded({extended}) / koa-bodyparser hand over: arrays for repeated fields, nested objects.
  { weight: 16, arbitrary: fc.oneof(jsonValue, fc.dictionary(fc.oneof(walletFields, key), fc.oneof(anyString, fc.array(anyString, { maxLength: 3 }), hostileJson), { maxKeys: 5 })).map((value) => ({ kind: 'parsed' as const, value })) },
  // Last: fast-check shrinks towards the first alternatives, which keeps counterexamples small.
  { weight: 1, arbitrary: hugeBodies.map((t) => ({ kind: 'bytes' as const, bytes: new TextEncoder().encode(t) })) },
);

const request = fc.record({
  method: httpMethod,
  path,
  query: fc.oneof(fc.constant(''), formText([walletFields]), fc.constant('wallet_metadata=%7B%22vp_formats_supported%22%3A5%7D&wallet_nonce=x&wallet_nonce=y')),
  auth: bearer(API_KEY, OTHER_KEY),
  type: fc.option(contentType, { nil: undefined }),
  body,
  extraHeaders: fc.dictionary(fc.constantFrom('x-forwarded-host', 'host', 'origin', 'content-length', 'transfer-encoding', 'accept'), fc.string({ unit: fc.constantFrom(...'abc.:/0123456789 -'.split('')), maxLength: 20 }), { maxKeys: 2 }),
});
type Fuzzed = typeof request extends fc.Arbitrary<infer T> ? T : never;

async function run(property: string, r: Fuzzed): Promise<void> {
  const p = r.path();
  const headers = new Headers(r.extraHeaders);
  if (r.auth !== undefined) headers.set('authorization', r.auth);
  if (r.type !== undefined) headers.set('content-type', r.type);
  const core: CoreRequest = { method: r.method, path: p, query: new URLSearchParams(r.query), headers, ...(r.body ? { body: r.body } : {}) };
  const before = env.unexpected.length;
  const { outcome } = await measureAsync(property, () => `${r.method} ${p} ${r.type ?? ''} ${describeInput(r.body?.kind === 'bytes' ? r.body.bytes : r.body?.kind === 'parsed' ? r.body.value : '')}`, () => env.handle(core));
  // handle() is documented never to throw.
  expect(outcome.ok, outcome.ok ? '' : String(outcome.error)).toBe(true);
  const res = (outcome as { value: Awaited<ReturnType<FuzzEnv['handle']>> }).value;
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  expectContract(p, r.method, res);
  expect(env.unexpected.slice(before).map(String)).toEqual([]);
}

describe('every route, in process (authorizer.handle)', () => {
  it('HEAD answers carry no body on any path, error answers included (RFC 9110 section 9.3.2)', async () => {
    const paths = [...TEMPLATES.map((t) => t.replace('{id}', ids[1]!)), '/nope', `${V}/x/direct_post`];
    const withBody: string[] = [];
    for (const p of paths) {
      for (const auth of [undefined, `Bearer ${API_KEY}`]) {
        const res = await env.handle({ method: 'HEAD', path: p, query: new URLSearchParams(), headers: new Headers(auth ? { authorization: auth } : {}) });
        expectContract(p, 'HEAD', res);
        if (res.body) withBody.push(`${p} ${auth ? 'authed' : 'anonymous'} → ${res.status}`);
      }
    }
    expect(withBody).toEqual([]);
  });

  it('random method × path × id × bearer × content type × body: 2xx or 4xx with a stable code, never 5xx, never onError', { timeout: 150_000 }, async () => {
    await fuzzAsync('routes', RUNS.routes, request, (r) => run('handle', r));
  });

  it('authenticated, correctly typed requests reach the operations: the same contract holds deep inside create, resolve and the DC API endpoints', { timeout: 120_000 }, async () => {
    const authed = request.map((r) => {
      const p = r.path();
      const form = /\/(direct_post(\.jwt)?|jwt)$/.test(p);
      return { ...r, method: /\/(status|policy-response|credentials|jwks|openid-configuration|health|ready|trust-anchor)$/.test(p) ? 'GET' : /\/personal-data$/.test(p) ? 'DELETE' : 'POST', path: () => p, auth: `Bearer ${API_KEY}`, type: form ? 'application/x-www-form-urlencoded' : 'application/json' };
    });
    const createBodies = fc.record({
      responseMode: fc.constantFrom('direct_post', 'direct_post.jwt', 'dc_api', 'dc_api.jwt'),
      responseType: fc.constantFrom('vp_token', 'vp_token id_token'),
      query: fc.oneof(fc.constant({ type: 'DCQL', dcql: DCQL_SD_JWT }), fc.constant({ type: 'DCQL', dcql: DCQL_MIXED }), fc.constant({ type: 'DIF.PresentationExchange', presentationDefinition: PE_DEFINITION }), hostileJson),
      protocol: fc.constantFrom('openid4vp-v1-unsigned', 'openid4vp-v1-signed', 'openid4vp-v1-multisigned'),
      expectedOrigins: fc.constantFrom(['https://rp.example'], ['https://rp.example/'], []),
      profile: fc.constantFrom('haip', undefined),
      walletMetadata: hostileJson,
      redirectUri: fc.constantFrom('https://rp.example/cb', 'ftp://x', undefined),
      nonce: fc.oneof(fc.constant(undefined), fc.constant('n-0123456789abcdef'), anyString),
    }, { requiredKeys: ['responseMode', 'query'] });
    const creates = createBodies.map((b) => ({ method: 'POST', path: () => `${V}/authorizations`, query: '', auth: `Bearer ${API_KEY}`, type: 'application/json', body: { kind: 'bytes' as const, bytes: new TextEncoder().encode(JSON.stringify(b)) }, extraHeaders: {} }));
    const wallet = fc.record({ vp_token: fc.oneof(presentationValue.map((v) => JSON.stringify({ pid: v })), anyString), presentation_submission: fc.oneof(submission.map((s) => JSON.stringify(s) ?? ''), anyString), state: anyString }, { requiredKeys: [] });
    const forms = fc.tuple(fc.constantFrom(0, 1, 2, 4), fc.constantFrom('direct_post', 'direct_post.jwt'), wallet).map(([i, mode, fields]) => ({ method: 'POST', path: () => `${V}/${ids[i]}/${mode}`, query: '', auth: undefined, type: 'application/x-www-form-urlencoded', body: { kind: 'bytes' as const, bytes: new TextEncoder().encode(new URLSearchParams(fields as Record<string, string>).toString()) }, extraHeaders: {} }));
    await fuzzAsync('routes-authed', RUNS.routesAuthed, fc.oneof(authed, creates, forms), (r) => run('handle (authenticated)', r as Fuzzed));
    // Proof that the fuzz got past authentication and validation, not only into 4xx.
    expect(statuses.get(201) ?? 0).toBeGreaterThan(0);
  });
});
