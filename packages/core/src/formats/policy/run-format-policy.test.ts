import { beforeAll, describe, expect, it } from 'vitest';
import type { AuthorizationQuery, DcqlCredentialQuery, PresentationDefinition } from '../../model/authorization-record.js';
import type { PolicyResult } from '../../model/policy-result.js';
import { runFormatPolicy, type FormatInput, type FormatOutcome } from './run-format-policy.js';
import { buildDeviceResponse, buildSdJwt, es256Key, signJwt, type SdJwtParts, type TestKey } from '../shared/test-fixtures.js';

const NS = 'org.iso.18013.5.1';
const dcql = (...credentials: DcqlCredentialQuery[]): AuthorizationQuery => ({ type: 'DCQL', dcql: { credentials } });
const pidQuery: DcqlCredentialQuery = { id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] } };
const mdlQuery: DcqlCredentialQuery = { id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: 'org.iso.18013.5.1.mDL' } };

let issuer: TestKey;
let holder: TestKey;
let pid: SdJwtParts;
let mdl: string;

beforeAll(async () => {
  issuer = await es256Key();
  holder = await es256Key();
  pid = await buildSdJwt({ issuer, holder, kb: true });
  mdl = buildDeviceResponse([{ docType: 'org.iso.18013.5.1.mDL', elements: [{ namespace: NS, identifier: 'family_name', value: 'Mustermann' }, { namespace: NS, identifier: 'age_over_18', value: true }] }]);
});

const run = (input: Partial<FormatInput> & Pick<FormatInput, 'query' | 'vpToken'>): FormatOutcome => runFormatPolicy({ responseType: 'vp_token', ...input });

function errors(outcome: FormatOutcome): PolicyResult[] {
  expect(outcome.ok).toBe(false);
  expect(outcome.results.length).toBeGreaterThan(0);
  for (const r of outcome.results) {
    expect(r).toMatchObject({ policy: 'format', service: 'authorizer' });
    expect(r.error?.code).toMatch(/^format\./);
    expect(r.error?.type).toBe(`https://vp-authorizer.dev/errors/${r.error?.code}`);
    expect(r.error?.title).toBeTruthy();
    expect(r.error?.detail).toBeTruthy();
    expect(r.data).toBeUndefined();
  }
  return outcome.results;
}
const codes = (outcome: FormatOutcome) => errors(outcome).map((r) => r.error?.code);

describe('runFormatPolicy — DCQL', () => {
  it('refuses a vp_token with more entries than credential queries before parsing any (entry amplification)', () => {
    const vpToken = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`q${i}`, ['x']]));
    const outcome = run({ query: dcql(pidQuery), vpToken });
    expect(codes(outcome)).toEqual(['format.vp_token_invalid']);
  });

  it('refuses more presentations for one query than the per-query cap, even with multiple: true', () => {
    const outcome = run({ query: dcql({ ...pidQuery, multiple: true }), vpToken: { pid: Array.from({ length: 200 }, () => pid.sdJwt) } });
    expect(codes(outcome)).toEqual(['format.cardinality']);
  });

  it('refuses a DeviceResponse with more than ten documents (issuer chains the verifier would check)', () => {
    const doc = { docType: 'org.iso.18013.5.1.mDL', elements: [{ namespace: NS, identifier: 'age_over_18', value: true }] };
    const outcome = run({ query: dcql(mdlQuery), vpToken: { mdl: [buildDeviceResponse(Array.from({ length: 11 }, () => doc))] } });
    expect(codes(outcome)).toEqual(['format.mdoc_malformed']);
    expect(run({ query: dcql(mdlQuery), vpToken: { mdl: [buildDeviceResponse(Array.from({ length: 10 }, () => doc))] } }).ok).toBe(true);
  });
  it('parses an SD-JWT and an mdoc presentation, with results and extracted credentials', () => {
    const outcome = run({ query: dcql(pidQuery, mdlQuery), vpToken: { pid: [pid.sdJwt], mdl: [mdl] } });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.presentations.map((p) => [p.kind, p.path])).toEqual([
      ['sd-jwt', ['pid', 0]],
      ['mdoc', ['mdl', 0]],
    ]);
    expect(outcome.results).toEqual([
      { path: ['pid', 0], policy: 'format', service: 'authorizer', data: { format: 'dc+sd-jwt', kind: 'sd-jwt', credentialType: 'urn:eudi:pid:1' } },
      { path: ['mdl', 0], policy: 'format', service: 'authorizer', data: { format: 'mso_mdoc', kind: 'mdoc', credentialType: 'org.iso.18013.5.1.mDL' } },
    ]);
    expect(outcome.credentials).toEqual([
      {
        path: ['pid', 0],
        format: 'dc+sd-jwt',
        credentialType: 'urn:eudi:pid:1',
        claims: { iss: 'https://issuer.example', iat: 1_700_000_000, vct: 'urn:eudi:pid:1', given_name: 'Erika', family_name: 'Mustermann', address: { country: 'DE', locality: 'Berlin' }, nationalities: ['DE'] },
      },
      {
        path: ['mdl', 0, 0],
        format: 'mso_mdoc',
        credentialType: 'org.iso.18013.5.1.mDL',
        claims: { family_name: 'Mustermann', age_over_18: true },
        namespaces: { [NS]: { family_name: 'Mustermann', age_over_18: true } },
      },
    ]);
    expect(outcome.credentials[0]?.claims).not.toHaveProperty('cnf');
    expect(outcome.idToken).toBeUndefined();
  });

  it('accepts vp_token as a JSON string (form post)', () => {
    const outcome = run({ query: dcql(pidQuery), vpToken: JSON.stringify({ pid: [pid.sdJwt] }) });
    expect(outcome.ok).toBe(true);
  });

  it('refuses a DCQL vp_token value that is not an array (OpenID4VP 1.0 section 8.1: MUST be an array)', () => {
    const results = errors(run({ query: dcql(pidQuery), vpToken: { pid: pid.sdJwt } }));
    expect(results.map((r) => [r.error?.code, r.path])).toEqual([['format.vp_token_invalid', ['pid']]]);
  });

  it('allows several presentations only when the query says multiple: true', async () => {
    const other = await buildSdJwt({ issuer, holder, kb: true, vct: 'urn:other' });
    const two = { pid: [pid.sdJwt, other.sdJwt] };
    expect(codes(run({ query: dcql(pidQuery), vpToken: two }))).toEqual(['format.cardinality']);
    const outcome = run({ query: dcql({ ...pidQuery, multiple: true }), vpToken: two });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.presentations.map((p) => p.path)).toEqual([
      ['pid', 0],
      ['pid', 1],
    ]);
    expect(outcome.credentials.map((c) => c.credentialType)).toEqual(['urn:eudi:pid:1', 'urn:other']);
  });

  it('rejects an empty array', () => {
    const [result] = errors(run({ query: dcql(pidQuery), vpToken: { pid: [] } }));
    expect(result).toMatchObject({ path: ['pid'], error: { code: 'format.cardinality' } });
  });

  it('rejects a key that is not a query id of this request', () => {
    const results = errors(run({ query: dcql(pidQuery), vpToken: { pid: [pid.sdJwt], mdl: [mdl] } }));
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ path: ['mdl'], error: { code: 'format.unknown_query_id' } });
  });

  it('refuses a vp_token whose keys cannot satisfy the query (so skipping validation never authorizes an empty answer)', () => {
    expect(errors(run({ query: dcql(pidQuery, mdlQuery), vpToken: { mdl: [mdl] } }))[0]?.error?.code).toBe('format.query_not_covered');
    expect(errors(run({ query: dcql(pidQuery), vpToken: {} }))[0]?.error?.code).toBe('format.query_not_covered');
    expect(run({ query: dcql(pidQuery, mdlQuery), vpToken: { mdl: [mdl], pid: [pid.sdJwt] } }).ok).toBe(true);
  });

  it('decodes by the format of the query, not by guessing', () => {
    const results = errors(run({ query: dcql(pidQuery), vpToken: { pid: [mdl] } }));
    expect(results[0]).toMatchObject({ path: ['pid', 0], error: { code: 'format.sd_jwt_malformed' } });
    expect(errors(run({ query: dcql(mdlQuery), vpToken: { mdl: [pid.sdJwt] } }))[0]?.error?.code).toBe('format.mdoc_malformed');
  });

  it('reports every failing presentation, not only the first', () => {
    const results = errors(run({ query: dcql({ ...pidQuery, multiple: true }, mdlQuery), vpToken: { pid: [pid.sdJwt, 'garbage'], mdl: ['garbage'], x: [] } }));
    expect(results.map((r) => [r.error?.code, r.path])).toEqual([
      ['format.sd_jwt_malformed', ['pid', 1]],
      ['format.mdoc_malformed', ['mdl', 0]],
      ['format.unknown_query_id', ['x']],
    ]);
  });

  it('rejects an unsupported query format', () => {
    expect(codes(run({ query: dcql({ id: 'q', format: 'ac_vp' }), vpToken: { q: ['x'] } }))).toEqual(['format.unsupported_format']);
  });

  it('parses jwt_vc_json (VP) and ldp_vc presentations and extracts W3C credentials', async () => {
    const vc = { type: ['VerifiableCredential', 'UniversityDegreeCredential'], credentialSubject: { degree: 'BSc' } };
    const vcJwt = await signJwt(issuer, { vc });
    const vpJwt = await signJwt(holder, { vp: { type: ['VerifiablePresentation'], verifiableCredential: [vcJwt, vcJwt] } });
    const ldp = { '@context': [], type: ['VerifiableCredential', 'AlumniCredential'], credentialSubject: [{ alumniOf: 'X' }], proof: { challenge: 'n' } };
    const outcome = run({ query: dcql({ id: 'degree', format: 'jwt_vc_json' }, { id: 'alumni', format: 'ldp_vc' }), vpToken: { degree: [vpJwt], alumni: [ldp] } });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.credentials).toEqual([
      { path: ['degree', 0, 0], format: 'jwt_vc_json', credentialType: 'UniversityDegreeCredential', claims: { degree: 'BSc' } },
      { path: ['degree', 0, 1], format: 'jwt_vc_json', credentialType: 'UniversityDegreeCredential', claims: { degree: 'BSc' } },
      { path: ['alumni', 0], format: 'ldp_vc', credentialType: 'AlumniCredential', claims: { alumniOf: 'X' } },
    ]);
    expect(outcome.results[0]?.data).toEqual({ format: 'jwt_vc_json', kind: 'jwt-vp', credentialType: 'UniversityDegreeCredential', credentialTypes: ['UniversityDegreeCredential', 'UniversityDegreeCredential'] });
    expect(codes(run({ query: dcql({ id: 'alumni', format: 'ldp_vc' }), vpToken: { alumni: ['a string'] } }))).toEqual(['format.ldp_malformed']);
  });

  it('extracts one credential per mdoc document, and HAIP requires exactly one', () => {
    const two = buildDeviceResponse([
      { docType: 'a', elements: [{ namespace: 'ns', identifier: 'x', value: 1 }] },
      { docType: 'b', elements: [{ namespace: 'ns', identifier: 'y', value: 2 }] },
    ]);
    const outcome = run({ query: dcql(mdlQuery), vpToken: { mdl: [two] } });
    expect(outcome.ok && outcome.credentials.map((c) => [c.path, c.credentialType, c.claims, c.namespaces])).toEqual([
      [['mdl', 0, 0], 'a', { x: 1 }, { ns: { x: 1 } }],
      [['mdl', 0, 1], 'b', { y: 2 }, { ns: { y: 2 } }],
    ]);
    expect(codes(run({ query: dcql(mdlQuery), vpToken: { mdl: [two] }, profile: 'haip' }))).toEqual(['format.haip_violation']);
    expect(run({ query: dcql(mdlQuery), vpToken: { mdl: [mdl] }, profile: 'haip' }).ok).toBe(true);
  });

  it('refuses distinct large mdoc items spread over several presentations once they exceed the one response-wide CBOR budget', () => {
    // Each presentation alone is well within the budget; the response as a whole is not.
    const large = () => buildDeviceResponse([{ docType: 'org.iso.18013.5.1.mDL', elements: [{ namespace: NS, identifier: 'list', value: new Array(25_000).fill(7) }] }]);
    const many = Array.from({ length: 6 }, large);
    const query = dcql({ ...mdlQuery, multiple: true });
    expect(run({ query, vpToken: { mdl: [many[0]] } }).ok).toBe(true);
    const results = errors(run({ query, vpToken: { mdl: many } }));
    expect(results.map((r) => r.error?.code)).toContain('format.cbor_budget_exceeded');
    for (const r of results) expect(r.path[0]).toBe('mdl');
    expect(results.every((r) => r.path[1] !== 0)).toBe(true);
  });

  it('rejects a presentation_submission sent with a DCQL query', () => {
    expect(codes(run({ query: dcql(pidQuery), vpToken: { pid: [pid.sdJwt] }, presentationSubmission: '{}' }))).toEqual(['format.submission_invalid']);
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a number', 7],
    ['an array', ['x']],
    ['a non-JSON string', 'eyJ.not.json'],
    ['a JSON string of an array', '["a"]'],
    ['a JSON string of a string', '"pid"'],
  ])('rejects a vp_token that is %s with format.vp_token_invalid', (_label, vpToken) => {
    expect(codes(run({ query: dcql(pidQuery), vpToken }))).toEqual(['format.vp_token_invalid']);
  });

  it('never throws, whatever it is given', () => {
    const weird: unknown[] = [
      Symbol('x'),
      () => 1,
      { pid: [{}] },
      { pid: [[pid.sdJwt]] },
      { pid: [null] },
      { ['__proto__']: [] },
      JSON.parse('{"__proto__": ["x"]}'),
      { pid: new Array(3).fill(pid.sdJwt) },
      '{"pid": [',
      'x'.repeat(10_000),
      { pid: ['~'.repeat(1000)] },
      { mdl: ['A'.repeat(4097)] },
      { mdl: [Buffer.from([0x9f, 0x9f, 0x9f]).toString('base64url')] },
    ];
    for (const vpToken of weird) {
      const outcome = run({ query: dcql(pidQuery, mdlQuery), vpToken });
      expect(outcome.ok).toBe(false);
      errors(outcome);
    }
    // A broken query (should have been rejected at creation) must not throw either.
    expect(runFormatPolicy({ query: { type: 'DCQL', dcql: {} } as never, responseType: 'vp_token', vpToken: { a: ['x'] } }).ok).toBe(false);
    expect(runFormatPolicy({ query: undefined as never, responseType: 'vp_token', vpToken: {} }).ok).toBe(false);
    expect(runFormatPolicy({ query: { type: 'DIF.PresentationExchange', presentationDefinition: {} } as never, responseType: 'vp_token', vpToken: 'x', presentationSubmission: { id: 'a', definition_id: 'd', descriptor_map: [{ id: 'a', format: 'ldp_vp', path: '$' }] } }).ok).toBe(false);
  });

  it('never puts token contents into error details', async () => {
    const secret = await buildSdJwt({ issuer, holder, kb: true, extraPayload: { secret_marker: 'TOPSECRET' } });
    const broken = `${secret.sdJwt.slice(0, -5)}!!!!!`;
    const outcome = run({ query: dcql(pidQuery, mdlQuery), vpToken: { pid: [broken], mdl: ['TOPSECRET'], TOPSECRETKEY: ['x'] } });
    const text = JSON.stringify(errors(outcome).map((r) => r.error));
    expect(text).not.toContain('TOPSECRET');
    expect(text).not.toContain(secret.issuerJwt.slice(0, 20));
  });
});

describe('runFormatPolicy — ID token', () => {
  it('requires a decodable id_token for "vp_token id_token"', async () => {
    const idToken = await signJwt(holder, { iss: 'https://self-issued.me/v2', sub: 'abc', nonce: 'n' }, { typ: 'JWT' });
    const outcome = runFormatPolicy({ query: dcql(pidQuery), responseType: 'vp_token id_token', vpToken: { pid: [pid.sdJwt] }, idToken });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.idToken).toMatchObject({ compact: idToken, path: ['id_token'], payload: { sub: 'abc' } });
    expect(outcome.results.at(-1)).toEqual({ path: ['id_token'], policy: 'format', service: 'authorizer', data: { format: 'jwt', kind: 'id-token' } });
  });

  it('fails when the id_token is missing or malformed', () => {
    const base = { query: dcql(pidQuery), responseType: 'vp_token id_token' as const, vpToken: { pid: [pid.sdJwt] } };
    expect(errors(runFormatPolicy(base))[0]).toMatchObject({ path: ['id_token'], error: { code: 'format.id_token_missing' } });
    expect(codes(runFormatPolicy({ ...base, idToken: 'not-a-jwt' }))).toEqual(['format.id_token_malformed']);
    expect(codes(runFormatPolicy({ ...base, idToken: { a: 1 } }))).toEqual(['format.id_token_malformed']);
  });

  it('reports both a broken vp_token and a missing id_token', () => {
    expect(codes(runFormatPolicy({ query: dcql(pidQuery), responseType: 'vp_token id_token', vpToken: 'x' }))).toEqual(['format.vp_token_invalid', 'format.id_token_missing']);
  });

  it('ignores an id_token when the response type is vp_token', () => {
    const outcome = run({ query: dcql(pidQuery), vpToken: { pid: [pid.sdJwt] }, idToken: 'garbage' });
    expect(outcome.ok).toBe(true);
    expect(outcome.ok && outcome.idToken).toBeUndefined();
  });
});

describe('runFormatPolicy — Presentation Exchange', () => {
  // Any one descriptor is enough, so each test can answer only the ones it is about.
  const definition: PresentationDefinition = {
    id: 'pd-1',
    input_descriptors: [
      { id: 'pid', format: { 'vc+sd-jwt': {}, 'dc+sd-jwt': {} }, group: ['A'] },
      { id: 'mdl', format: { mso_mdoc: {} }, group: ['A'] },
      { id: 'degree', group: ['A'] },
    ],
    submission_requirements: [{ rule: 'pick', min: 1, from: 'A' }],
  };
  const pe: AuthorizationQuery = { type: 'DIF.PresentationExchange', presentationDefinition: definition };
  const submission = (descriptor_map: unknown[], extra: Record<string, unknown> = {}) => ({ id: 'sub-1', definition_id: 'pd-1', descriptor_map, ...extra });

  it('resolves $[n] paths into an array vp_token and decodes by descriptor format', () => {
    const outcome = run({
      query: pe,
      vpToken: JSON.stringify([pid.sdJwt, mdl]),
      presentationSubmission: JSON.stringify(submission([
        { id: 'pid', format: 'vc+sd-jwt', path: '$[0]' },
        { id: 'mdl', format: 'mso_mdoc', path: '$[1]' },
      ])),
    });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.presentations.map((p) => [p.kind, p.path, p.format])).toEqual([
      ['sd-jwt', ['pid', 0], 'vc+sd-jwt'],
      ['mdoc', ['mdl', 0], 'mso_mdoc'],
    ]);
    expect(outcome.credentials.map((c) => c.path)).toEqual([['pid', 0], ['mdl', 0, 0]]);
  });

  it('resolves $ for a single unquoted presentation and a jwt_vp_json VP with path_nested', async () => {
    const vcJwt = await signJwt(issuer, { vc: { type: ['VerifiableCredential', 'Degree'], credentialSubject: { d: 1 } } });
    const vpJwt = await signJwt(holder, { vp: { type: ['VerifiablePresentation'], verifiableCredential: [vcJwt] } });
    const outcome = run({
      query: pe,
      vpToken: vpJwt,
      presentationSubmission: submission([{ id: 'degree', format: 'jwt_vp_json', path: '$', path_nested: { format: 'jwt_vc_json', path: '$.vp.verifiableCredential[0]' } }]),
    });
    expect(outcome.ok).toBe(true);
    expect(outcome.ok && outcome.presentations[0]).toMatchObject({ kind: 'jwt-vp', path: ['degree', 0] });
    expect(outcome.ok && outcome.credentials).toEqual([{ path: ['degree', 0, 0], format: 'jwt_vp_json', credentialType: 'Degree', claims: { d: 1 } }]);
  });

  it('counts the index within each descriptor', async () => {
    const other = await buildSdJwt({ issuer, vct: 'urn:b' });
    const outcome = run({
      query: pe,
      vpToken: [pid.sdJwt, other.sdJwt],
      presentationSubmission: submission([
        { id: 'pid', format: 'dc+sd-jwt', path: '$[0]' },
        { id: 'pid', format: 'dc+sd-jwt', path: '$[1]' },
      ]),
    });
    expect(outcome.ok && outcome.presentations.map((p) => p.path)).toEqual([['pid', 0], ['pid', 1]]);
  });

  it('requires a presentation_submission', () => {
    expect(errors(run({ query: pe, vpToken: pid.sdJwt }))[0]).toMatchObject({ path: ['presentation_submission'], error: { code: 'format.submission_invalid' } });
  });

  it.each([
    ['not JSON', '{'],
    ['a JSON array', '[]'],
    ['missing descriptor_map', { id: 'a', definition_id: 'pd-1' }],
    ['an empty descriptor_map', submission([])],
    ['an entry without path', submission([{ id: 'pid', format: 'dc+sd-jwt' }])],
    ['a malformed path_nested', submission([{ id: 'pid', format: 'dc+sd-jwt', path: '$', path_nested: { path: 1 } }])],
    ['another definition id', { ...submission([{ id: 'pid', format: 'dc+sd-jwt', path: '$' }]), definition_id: 'other' }],
  ])('rejects a submission that is %s', (_label, presentationSubmission) => {
    expect(codes(run({ query: pe, vpToken: pid.sdJwt, presentationSubmission }))).toEqual(['format.submission_invalid']);
  });

  it.each([
    ['an unknown descriptor id', { id: 'nope', format: 'dc+sd-jwt', path: '$' }, 'format.submission_invalid'],
    ['a format the descriptor does not allow', { id: 'mdl', format: 'dc+sd-jwt', path: '$' }, 'format.submission_invalid'],
    ['an unsupported format', { id: 'degree', format: 'ac_vp', path: '$' }, 'format.unsupported_format'],
    ['a JSONPath we do not resolve', { id: 'pid', format: 'dc+sd-jwt', path: '$.vp' }, 'format.submission_invalid'],
    ['an index out of range', { id: 'pid', format: 'dc+sd-jwt', path: '$[3]' }, 'format.submission_invalid'],
  ])('rejects a descriptor with %s', (_label, entry, code) => {
    const results = errors(run({ query: pe, vpToken: [pid.sdJwt, mdl], presentationSubmission: submission([entry]) }));
    expect(results.map((r) => r.error?.code)).toEqual([code]);
    expect(results[0]?.path.slice(0, 3)).toEqual(['presentation_submission', 'descriptor_map', 0]);
  });

  it('rejects $ on an array vp_token and $[0] on a single presentation', () => {
    expect(codes(run({ query: pe, vpToken: [pid.sdJwt], presentationSubmission: submission([{ id: 'pid', format: 'dc+sd-jwt', path: '$' }]) }))).toEqual(['format.submission_invalid']);
    expect(codes(run({ query: pe, vpToken: pid.sdJwt, presentationSubmission: submission([{ id: 'pid', format: 'dc+sd-jwt', path: '$[0]' }]) }))).toEqual(['format.submission_invalid']);
  });

  it('reports a malformed presentation at [descriptorId, n]', () => {
    const results = errors(run({ query: pe, vpToken: ['garbage'], presentationSubmission: submission([{ id: 'pid', format: 'dc+sd-jwt', path: '$[0]' }]) }));
    expect(results[0]).toMatchObject({ path: ['pid', 0], error: { code: 'format.sd_jwt_malformed' } });
  });

  it('rejects a missing or unparsable vp_token', () => {
    const presentationSubmission = submission([{ id: 'pid', format: 'dc+sd-jwt', path: '$' }]);
    expect(codes(run({ query: pe, vpToken: undefined, presentationSubmission }))).toEqual(['format.vp_token_invalid']);
    expect(codes(run({ query: pe, vpToken: '["a",', presentationSubmission }))).toEqual(['format.vp_token_invalid']);
  });
});
