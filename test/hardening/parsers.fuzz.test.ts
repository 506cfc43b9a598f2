/**
 * Property-based fuzzing of every wallet- and RP-input parser, in process. Each parser must return
 * a value or fail with its module's typed error (FormatFailure `format.*`, AuthorizerError with a
 * known code), never a raw TypeError/RangeError or a non-Error. How long each case held the thread
 * is recorded and printed with the tally, never asserted (bench/hostile-stalls.mjs measures the
 * stalls of the hostile corpus). Seeds are fixed per property (fast-check prints seed and path on failure).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthorizerError, CODES } from '@vp-authorizer/core';
import type { CoreRequest } from '../../packages/core/src/wire/core-request.js';
import { parseBody, type BodyKind } from '../../packages/core/src/wire/parse-body.js';
import { cborToJson } from '../../packages/core/src/formats/shared/cbor-to-json.js';
import { decodeCompactJwt } from '../../packages/core/src/formats/shared/decode-jwt.js';
import { FormatFailure } from '../../packages/core/src/formats/format-error.js';
import { parseMdoc } from '../../packages/core/src/formats/mso-mdoc/parse-mdoc.js';
import { parsePeVpToken } from '../../packages/core/src/formats/policy/parse-pe-vp-token.js';
import { parseSdJwt } from '../../packages/core/src/formats/sd-jwt-vc/parse-sd-jwt.js';
import { runFormatPolicy } from '../../packages/core/src/formats/policy/run-format-policy.js';
import { parseCreateAuthorizationBody } from '../../packages/core/src/request/create-authorization-body.js';
import { checkWalletMetadata, parseWalletMetadataParam } from '../../packages/core/src/request/wallet-metadata.js';
import { anyString, contentType, deepJsonText, formText, hostileJson, invalidUtf8, jwtLike, key } from './__fixtures__/arbitraries.js';
import { RUNS } from './__fixtures__/fuzz-budget.js';
import { fuzz, measureSync, reportTally, type Outcome } from './__fixtures__/fuzz-harness.js';
import {
  FORMATS,
  cbor,
  cborTokens,
  coherentDcql,
  coherentPe,
  cborValue,
  dcqlQuery,
  deviceResponse,
  presentationDefinition,
  presentationValue,
  sdJwtLike,
  structuredSdJwt,
  submission,
} from './__fixtures__/parser-arbitraries.js';
import { validDeviceResponse, validSdJwtPresentation } from './__fixtures__/valid-presentations.js';

const TIMEOUT = 120_000;
const REF = { path: ['q', 0], queryId: 'q', index: 0 };

afterAll(() => reportTally('parsers'));

/** The failure contract shared by the format parsers. */
function expectFormatFailure(outcome: Outcome<unknown>, allowed: string[]): void {
  if (outcome.ok) return;
  const error = outcome.error;
  expect(error, `threw ${String(error)}`).toBeInstanceOf(FormatFailure);
  expect(allowed).toContain((error as FormatFailure).code);
  // Details are ours, never echoes of wallet input (kept short and free of control characters).
  expect((error as FormatFailure).detail.length).toBeLessThan(300);
}

function expectAuthorizerError(outcome: Outcome<unknown>, allowed: string[]): void {
  if (outcome.ok) return;
  expect(outcome.error, `threw ${String(outcome.error)}`).toBeInstanceOf(AuthorizerError);
  expect(allowed).toContain((outcome.error as AuthorizerError).code);
  const { code } = outcome.error as AuthorizerError;
  expect(Object.hasOwn(CODES, code) && CODES[code].kind).toBe('http');
}

/** No parser may have written through a poison key onto Object.prototype. */
function expectPrototypeClean(): void {
  const probe = {} as Record<string, unknown>;
  for (const k of ['polluted', 'isAdmin', 'a', 'x', 'vct']) expect(probe[k]).toBeUndefined();
  expect(Object.keys(Object.prototype)).toEqual([]);
}

/** Counts accepted inputs per property: a fuzz that never reaches the success path proves little. */
const accepted = new Map<string, number>();
const accept = (name: string) => accepted.set(name, (accepted.get(name) ?? 0) + 1);
const expectSomeAccepted = (name: string, min = 1) => expect(accepted.get(name) ?? 0, `${name}: accepted inputs`).toBeGreaterThanOrEqual(min);

describe('JWT (decode-jwt)', () => {
  it('decodeCompactJwt returns a decoded JWT with object header and payload, or a reason string; never throws', { timeout: TIMEOUT }, () => {
    fuzz('jwt', RUNS.jwt, fc.oneof({ weight: 6, arbitrary: jwtLike }, { weight: 1, arbitrary: hostileJson }), (input) => {
      const { outcome } = measureSync('decodeCompactJwt', input, () => decodeCompactJwt(input));
      expect(outcome.ok, outcome.ok ? '' : String(outcome.error)).toBe(true);
      const value = (outcome as { value: ReturnType<typeof decodeCompactJwt> }).value;
      if ('error' in value) {
        expect(typeof value.error).toBe('string');
      } else {
        accept('jwt');
        expect(value.compact).toBe(input);
        expect(value.header).toBeTypeOf('object');
        expect(Array.isArray(value.header) || Array.isArray(value.payload)).toBe(false);
        expect(value.compact.split('.')).toHaveLength(3);
      }
    });
    expectSomeAccepted('jwt', 100);
  });
});

describe('SD-JWT (parse-sd-jwt)', () => {
  let valid: string;
  beforeAll(async () => {
    valid = await validSdJwtPresentation();
  });

  it('arbitrary tilde-separated input parses or fails with format.sd_jwt_malformed', { timeout: TIMEOUT }, () => {
    // Mutations of a real SD-JWT reach the deeper branches that random text cannot.
    const mutated = fc.tuple(fc.nat(), fc.nat({ max: 40 }), fc.constantFrom('', '~', '.', 'A', '~~', '=', '\u0000')).map(([at, cut, insert]) => {
      const i = at % (valid.length + 1);
      return valid.slice(0, i) + insert + valid.slice(i + cut);
    });
    fuzz('sd-jwt', RUNS.sdJwt, fc.oneof(sdJwtLike, mutated, structuredSdJwt), (input) => {
      const { outcome } = measureSync('parseSdJwt', input, () => parseSdJwt(input, { ...REF, format: 'dc+sd-jwt' }));
      expectFormatFailure(outcome, ['format.sd_jwt_malformed']);
    });
  });

  it('digest-consistent SD-JWTs (nested, duplicate and poison-key disclosures) resolve to plain claims without _sd members or prototype changes', { timeout: TIMEOUT }, () => {
    fuzz('sd-jwt-structured', RUNS.sdJwtStructured, structuredSdJwt, (input) => {
      const { outcome } = measureSync('parseSdJwt', input, () => parseSdJwt(input, { ...REF, format: 'dc+sd-jwt' }));
      expectFormatFailure(outcome, ['format.sd_jwt_malformed']);
      if (outcome.ok) {
        accept('sd-jwt-structured');
        expect(Object.getPrototypeOf(outcome.value.claims)).toBe(Object.prototype);
        expect(Object.hasOwn(outcome.value.claims, '_sd')).toBe(false);
        expect(Object.hasOwn(outcome.value.claims, '_sd_alg')).toBe(false);
        // Claims are stored with the record: they must survive JSON serialisation.
        expect(() => JSON.stringify(outcome.value.claims)).not.toThrow();
      }
      expectPrototypeClean();
    });
    expectSomeAccepted('sd-jwt-structured', 100);
  });
});

describe('mdoc DeviceResponse (parse-mdoc, cbor-to-json)', () => {
  let validBytes: Buffer;
  beforeAll(async () => {
    validBytes = Buffer.from(await validDeviceResponse(), 'base64url');
  });
  const MDOC_CODES = ['format.mdoc_malformed', 'format.haip_violation'];

  it('random CBOR token streams and byte mutations parse or fail with format.mdoc_malformed', { timeout: TIMEOUT }, () => {
    const mutated = fc.tuple(fc.nat(), fc.nat({ max: 16 }), fc.uint8Array({ maxLength: 6 })).map(([at, cut, insert]) => {
      const i = at % (validBytes.length + 1);
      return Buffer.concat([validBytes.subarray(0, i), insert, validBytes.subarray(i + cut)]).toString('base64url');
    });
    const input = fc.oneof(cborTokens.map((b) => Buffer.from(b).toString('base64url')), mutated, anyString, hostileJson);
    fuzz('mdoc', RUNS.mdoc, fc.tuple(input, fc.boolean()), ([value, haip]) => {
      const { outcome } = measureSync('parseMdoc', value, () => parseMdoc(value, { ...REF, format: 'mso_mdoc' }, haip ? { profile: 'haip' } : {}));
      expectFormatFailure(outcome, MDOC_CODES);
    });
  });

  it('DeviceResponse-shaped maps with wrong members parse to JSON-safe documents or fail with format.mdoc_malformed', { timeout: TIMEOUT }, () => {
    fuzz('mdoc-structured', RUNS.mdocStructured, fc.tuple(deviceResponse, fc.boolean()), ([value, haip]) => {
      const { outcome } = measureSync('parseMdoc', value, () => parseMdoc(value, { ...REF, format: 'mso_mdoc' }, haip ? { profile: 'haip' } : {}));
      expectFormatFailure(outcome, MDOC_CODES);
      if (outcome.ok) {
        accept('mdoc-structured');
        for (const doc of outcome.value.documents) {
          expect(() => JSON.stringify(doc.nameSpaces)).not.toThrow();
          expect(Object.getPrototypeOf(doc.nameSpaces)).toBe(Object.prototype);
        }
      }
      expectPrototypeClean();
    });
    expectSomeAccepted('mdoc-structured', 10);
  });

  it('cborToJson turns any decoded CBOR into serialisable JSON or throws an Error (its callers map it to a format failure)', { timeout: TIMEOUT }, () => {
    const decoded = fc.oneof(
      cborValue,
      cborTokens.map((bytes) => {
        try {
          // cbor-x unguarded (resolves shared references 28/29): cborToJson must bound the expansion itself.
          return cbor.decode(bytes) as unknown;
        } catch {
          return null;
        }
      }),
    );
    fuzz('cbor-to-json', RUNS.cborToJson, decoded, (value) => {
      const { outcome } = measureSync('cborToJson', value, () => cborToJson(value));
      if (!outcome.ok) {
        // Not a typed failure: documented as internal, parseMdoc wraps it. Still an Error, never a non-Error.
        expect(outcome.error).toBeInstanceOf(Error);
        return;
      }
      const text = JSON.stringify(outcome.value);
      expect(text === undefined ? undefined : JSON.parse(text)).toEqual(outcome.value === undefined ? undefined : JSON.parse(text));
      expectPrototypeClean();
    });
  });
});

describe('create body: DCQL query and presentation definition (create-authorization-body, dcql-query, presentation-definition)', () => {
  const CREATE_CODES = ['request.invalid_body'];

  it('arbitrary JSON bodies are accepted or refused with request.invalid_body and JSON-pointer errors', { timeout: TIMEOUT }, () => {
    fuzz('create-body', RUNS.createBody, hostileJson, (body) => {
      const { outcome } = measureSync('parseCreateAuthorizationBody', body, () => parseCreateAuthorizationBody(body));
      expectAuthorizerError(outcome, CREATE_CODES);
      if (!outcome.ok) for (const e of (outcome.error as AuthorizerError).errors ?? []) expect(e.pointer).toMatch(/^(\/.*)?$/);
    });
  });

  it('near-valid bodies with wrong types, poison keys and bad cross references are accepted or refused with pointers into the body', { timeout: TIMEOUT }, () => {
    // Each member mostly valid (weight 5) and sometimes wrong (weight 1): a body wrong everywhere only exercises the first check.
    const mostly = <T, U>(valid: fc.Arbitrary<T>, wrong: fc.Arbitrary<U>) => fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: wrong });
    const claim = fc.record({
      id: fc.option(mostly(fc.constantFrom('c1', 'c2'), fc.oneof(fc.constant('bad id'), anyString)), { nil: undefined }),
      path: mostly(fc.constantFrom(['given_name'], ['address', 'locality'], ['nationalities', null], ['a', 0]), fc.oneof(fc.array(fc.oneof(anyString, fc.integer(), fc.constant(null)), { maxLength: 3 }), hostileJson)),
      values: fc.option(mostly(fc.constantFrom(['x'], [1, true]), fc.array(hostileJson, { maxLength: 2 })), { nil: undefined }),
    });
    const credential = fc.oneof(
      fc.record({
        id: mostly(fc.constantFrom('pid', 'pid2', '__proto__', 'constructor'), fc.oneof(fc.constantFrom('bad id!', ''), anyString)),
        format: mostly(fc.constantFrom('dc+sd-jwt', 'vc+sd-jwt'), fc.oneof(fc.constantFrom(...FORMATS), hostileJson)),
        meta: mostly(fc.constant({ vct_values: ['urn:x'] }), fc.oneof(fc.record({ vct_values: hostileJson }), hostileJson)),
        claims: fc.option(fc.array(claim, { minLength: 1, maxLength: 3 }), { nil: undefined }),
        claim_sets: fc.option(fc.array(fc.array(fc.constantFrom('c1', 'c2', 'c3'), { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 2 }), { nil: undefined }),
        multiple: fc.option(mostly(fc.boolean(), hostileJson), { nil: undefined }),
        trusted_authorities: fc.option(mostly(fc.constant([{ type: 'aki', values: ['x'] }]), hostileJson), { nil: undefined }),
      }),
      fc.record({
        id: fc.constantFrom('mdl', 'mdl2'),
        format: fc.constant('mso_mdoc'),
        meta: mostly(fc.constant({ doctype_value: 'org.iso.18013.5.1.mDL' }), hostileJson),
        claims: fc.option(fc.array(fc.record({ path: mostly(fc.constant(['org.iso.18013.5.1', 'family_name']), fc.constantFrom(['a'], ['a', 'b', 'c'], [0, 'x'])) }), { minLength: 1, maxLength: 2 }), { nil: undefined }),
      }),
    );
    const query = mostly(
      fc.oneof(
        fc.record({ type: fc.constant('DCQL'), dcql: fc.record({ credentials: fc.array(credential, { minLength: 1, maxLength: 3 }), credential_sets: fc.option(fc.array(fc.record({ options: fc.array(fc.array(fc.constantFrom('pid', 'mdl', 'zz'), { minLength: 1 }), { minLength: 1 }), required: fc.option(fc.boolean(), { nil: undefined }) }), { minLength: 1 }), { nil: undefined }) }) }),
        fc.record({ type: fc.constant('DIF.PresentationExchange'), presentationDefinition: mostly(presentationDefinition, hostileJson) }),
      ),
      fc.record({ type: fc.oneof(fc.constantFrom('scope-alias', 'dcql', '__proto__'), anyString), dcql: hostileJson }),
    );
    const body = fc.record(
      {
        responseMode: mostly(fc.constantFrom('direct_post', 'direct_post.jwt', 'dc_api', 'dc_api.jwt'), hostileJson),
        responseType: mostly(fc.constantFrom('vp_token', 'vp_token id_token'), fc.constantFrom('id_token', 5)),
        query,
        nonce: mostly(fc.constant('n'.repeat(16)), fc.oneof(anyString, fc.constant('n'.repeat(257)))),
        profile: mostly(fc.constant('haip'), fc.constantFrom('HAIP', null)),
        protocol: mostly(fc.constantFrom('openid4vp-v1-unsigned', 'openid4vp-v1-signed', 'openid4vp-v1-multisigned'), fc.constant('x')),
        expectedOrigins: mostly(fc.constant(['https://rp.example']), fc.oneof(fc.array(anyString, { maxLength: 2 }), hostileJson)),
        redirectUri: mostly(fc.constant('https://rp.example/cb'), fc.oneof(fc.constantFrom('javascript:alert(1)', 'http://', 'https://[::1]/x'), anyString)),
        transaction_data: mostly(fc.constant([Buffer.from(JSON.stringify({ type: 't', credential_ids: ['pid'] })).toString('base64url')]), fc.oneof(fc.array(anyString, { maxLength: 2 }), hostileJson)),
        walletMetadata: mostly(fc.constant({ vp_formats_supported: {} }), hostileJson),
        responseTypeParameters: mostly(fc.constant({ verifier_info: [{ format: 'jwt', data: 'x', credential_ids: ['pid'] }] }), hostileJson),
        __proto__: hostileJson,
      },
      { requiredKeys: ['responseMode', 'query'] },
    );
    fuzz('create-body-structured', RUNS.createBodyStructured, body, (input) => {
      // fc.record with a "__proto__" member defines it as an own property, like JSON.parse does.
      const { outcome } = measureSync('parseCreateAuthorizationBody', input, () => parseCreateAuthorizationBody(input));
      expectAuthorizerError(outcome, CREATE_CODES);
      if (outcome.ok) {
        accept('create-body-structured');
        expect(['direct_post', 'direct_post.jwt', 'dc_api', 'dc_api.jwt']).toContain(outcome.value.responseMode);
      }
      expectPrototypeClean();
    });
    expectSomeAccepted('create-body-structured');
  });
});

describe('Presentation Exchange (parse-pe-vp-token)', () => {
  it('any presentation_submission and vp_token against a valid definition yields presentations and format failures, or throws a FormatFailure', { timeout: TIMEOUT }, () => {
    const vpToken = fc.oneof(presentationValue, fc.array(presentationValue, { maxLength: 4 }), fc.array(presentationValue, { maxLength: 3 }).map((a) => JSON.stringify(a)), hostileJson.map((v) => JSON.stringify(v) ?? ''), deepJsonText);
    const sub = fc.oneof(submission, submission.map((s) => JSON.stringify(s) ?? ''), deepJsonText);
    const random = fc.tuple(vpToken, sub, presentationDefinition, fc.boolean());
    const coherent = fc.tuple(coherentPe, fc.boolean()).map(([c, haip]) => [c.vpToken, c.submission, c.definition, haip] as [unknown, unknown, typeof c.definition, boolean]);
    fuzz('pe', RUNS.peSubmission, fc.oneof({ weight: 3, arbitrary: random }, { weight: 1, arbitrary: coherent }), ([token, s, definition, haip]) => {
      const { outcome } = measureSync('parsePeVpToken', [token, s], () => parsePeVpToken(token, s, definition, haip ? { profile: 'haip' } : {}));
      expectFormatFailure(outcome, ['format.submission_invalid', 'format.vp_token_invalid']);
      if (outcome.ok) {
        if (outcome.value.presentations.length > 0) accept('pe');
        for (const f of outcome.value.failures) expect(f).toBeInstanceOf(FormatFailure);
        for (const p of outcome.value.presentations) expect(definition.input_descriptors.map((d) => d.id)).toContain(p.queryId);
      }
      expectPrototypeClean();
    });
    expectSomeAccepted('pe');
  });
});

describe('wallet_metadata (wallet-metadata)', () => {
  it('any wallet_metadata parameter is parsed and checked, or refused with invalid_wallet_metadata / haip.wallet_metadata', { timeout: TIMEOUT }, () => {
    const member = fc.record(
      {
        vp_formats_supported: fc.oneof(fc.dictionary(fc.constantFrom(...FORMATS), fc.oneof(fc.record({ 'sd-jwt_alg_values': hostileJson, issuerauth_alg_values: fc.constantFrom([-7], [-35], 'x') }), hostileJson)), hostileJson),
        client_id_prefixes_supported: fc.oneof(fc.constant(['x509_hash']), hostileJson),
        client_id_schemes_supported: hostileJson,
        request_object_signing_alg_values_supported: fc.oneof(fc.constant(['ES256']), hostileJson),
        response_modes_supported: hostileJson,
        authorization_encryption_enc_values_supported: fc.oneof(fc.constant(['A128GCM']), hostileJson),
        jwks: fc.oneof(fc.record({ keys: hostileJson }), hostileJson),
        __proto__: hostileJson,
        constructor: hostileJson,
      },
      { requiredKeys: [] },
    );
    const raw = fc.oneof(member.map((m) => JSON.stringify(m)), hostileJson.map((v) => JSON.stringify(v) ?? ''), deepJsonText, anyString);
    const ctx = fc.record({ haip: fc.boolean(), clientIdPrefix: fc.constantFrom('x509_hash', 'redirect_uri', '__proto__'), requireClientIdPrefix: fc.boolean(), formats: fc.subarray(FORMATS) });
    fuzz('wallet-metadata', RUNS.walletMetadata, fc.tuple(raw, ctx), ([text, c]) => {
      const { outcome } = measureSync('walletMetadata', text, () => {
        const parsed = parseWalletMetadataParam(text);
        if (parsed) checkWalletMetadata(parsed, c);
        return parsed;
      });
      expectAuthorizerError(outcome, ['authorization.invalid_wallet_metadata', 'haip.wallet_metadata']);
      if (outcome.ok && outcome.value) accept('wallet-metadata');
      expectPrototypeClean();
    });
    expectSomeAccepted('wallet-metadata', 10);
  });
});

describe('request bodies (parse-body)', () => {
  const BODY_CODES = ['request.unsupported_media_type', 'request.invalid_body', 'request.invalid_json'];
  const accepted = fc.subarray<BodyKind>(['json', 'form'], { minLength: 1 });
  const check = (request: CoreRequest, kinds: BodyKind[], label: unknown) => {
    const { outcome } = measureSync('parseBody', label, () => parseBody(request, kinds));
    expectAuthorizerError(outcome, BODY_CODES);
    if (outcome.ok) {
      expect(kinds).toContain(outcome.value.kind);
      if (outcome.value.kind === 'form') {
        const form = outcome.value.value as Record<string, unknown>;
        // Form fields are one string each, in an object without a prototype to pollute.
        expect(Object.getPrototypeOf(form)).toBeNull();
        for (const v of Object.values(form)) expect(typeof v).toBe('string');
      }
    }
    expectPrototypeClean();
  };

  it('raw bytes (invalid UTF-8, deep JSON, duplicated form fields) under any content type parse or fail with a stable 4xx code', { timeout: TIMEOUT }, () => {
    const bytes = fc.oneof(
      invalidUtf8,
      hostileJson.map((v) => new TextEncoder().encode(JSON.stringify(v) ?? '')),
      deepJsonText.map((t) => new TextEncoder().encode(t)),
      formText([fc.constantFrom('vp_token', 'state', 'response', 'wallet_metadata')]).map((t) => new TextEncoder().encode(t)),
      fc.constantFrom(new Uint8Array(0), new TextEncoder().encode('   '), new TextEncoder().encode('a=1&a=2'), new TextEncoder().encode('__proto__=x&constructor=y')),
    );
    fuzz('parse-body-bytes', RUNS.parseBodyBytes, fc.tuple(contentType, bytes, accepted, fc.boolean()), ([type, body, kinds, empty]) => {
      const request: CoreRequest = { method: 'POST', path: '/', query: new URLSearchParams(), headers: new Headers({ 'content-type': type }), ...(empty ? {} : { body: { kind: 'bytes', bytes: body } }) };
      check(request, kinds, body);
    });
  });

  it('bodies a host parser already consumed (arrays for repeated fields, nested objects, non-objects) parse or fail with a stable 4xx code', { timeout: TIMEOUT }, () => {
    const parsed = fc.oneof(hostileJson, fc.dictionary(key, fc.oneof(anyString, fc.array(anyString, { maxLength: 3 }), hostileJson), { maxKeys: 6 }), deepJsonText.map((t) => JSON.parse(t) as unknown));
    fuzz('parse-body-parsed', RUNS.parseBodyParsed, fc.tuple(contentType, parsed, accepted), ([type, value, kinds]) => {
      check({ method: 'POST', path: '/', query: new URLSearchParams(), headers: new Headers({ 'content-type': type }), body: { kind: 'parsed', value } }, kinds, value);
    });
  });
});

describe('vp_token dispatch (run-format-policy)', () => {
  it('runFormatPolicy is total: any wallet payload against any query yields ok with data results, or ok:false with format.* error results; it never throws', { timeout: TIMEOUT }, () => {
    const query = fc.oneof(dcqlQuery.map((dcql) => ({ type: 'DCQL' as const, dcql })), presentationDefinition.map((presentationDefinition) => ({ type: 'DIF.PresentationExchange' as const, presentationDefinition })));
    const keyedToken = fc.dictionary(fc.oneof(fc.constantFrom('pid', 'mdl', 'a', 'b', '__proto__', 'constructor'), key), fc.oneof(presentationValue, fc.array(presentationValue, { maxLength: 3 })), { maxKeys: 3 });
    const vpToken = fc.oneof(keyedToken, keyedToken.map((t) => JSON.stringify(t)), presentationValue, fc.array(presentationValue, { maxLength: 3 }), deepJsonText, fc.constant(undefined));
    const coherent = fc.oneof(
      coherentDcql.map((c) => ({ query: { type: 'DCQL' as const, dcql: c.dcql }, vpToken: c.vpToken as unknown })),
      coherentPe.map((c) => ({ query: { type: 'DIF.PresentationExchange' as const, presentationDefinition: c.definition }, vpToken: c.vpToken, presentationSubmission: c.submission as unknown })),
    );
    const coherentInput = fc.tuple(coherent, fc.boolean()).map(([c, haip]) => ({ responseType: 'vp_token' as const, presentationSubmission: undefined as unknown, idToken: undefined as unknown, ...c, haip }));
    const randomInput = fc.record({
      query,
      responseType: fc.constantFrom('vp_token' as const, 'vp_token id_token' as const),
      vpToken,
      presentationSubmission: fc.oneof(fc.constant(undefined), submission, submission.map((s) => JSON.stringify(s) ?? '')),
      idToken: fc.oneof(fc.constant(undefined), jwtLike, hostileJson),
      haip: fc.boolean(),
    });
    const input = fc.oneof({ weight: 3, arbitrary: randomInput }, { weight: 1, arbitrary: coherentInput });
    fuzz('format-policy', RUNS.formatPolicy, input, ({ haip, ...rest }) => {
      const { outcome } = measureSync('runFormatPolicy', rest, () => runFormatPolicy({ ...rest, ...(haip ? { profile: 'haip' as const } : {}) }));
      expect(outcome.ok, outcome.ok ? '' : String(outcome.error)).toBe(true);
      const result = (outcome as { value: ReturnType<typeof runFormatPolicy> }).value;
      if (result.ok) {
        accept('format-policy');
        for (const r of result.results) expect(r.data).toBeDefined();
      } else {
        expect(result.results.length).toBeGreaterThan(0);
        for (const r of result.results) expect(r.error?.code).toMatch(/^format\./);
      }
      // The outcome is stored with the record.
      expect(() => JSON.stringify(result.results)).not.toThrow();
      expectPrototypeClean();
    });
    expectSomeAccepted('format-policy');
  });
});
