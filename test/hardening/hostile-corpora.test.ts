/**
 * Explicit hostile corpora (not random), each within the default body limit (1 MiB): CBOR bombs,
 * a Presentation Exchange submission that points 1000 times at a 400 KB vp_token, filter patterns
 * that stall a backtracking engine (exponential and cubic) on the values they are made for, 1 MB of
 * 10,000-deep JSON, forms with 100,000 parameters, oversized SD-JWTs and queries. Each is sent
 * through authorizer.handle() with the real local validator/verifier and must be refused (4xx,
 * authorization still pending) or end rejected/error, never 5xx. The CBOR bombs are also fed to
 * the mdoc parser directly. Each case's event-loop stall is printed, not asserted: timings are
 * measured by bench/hostile-stalls.mjs against an honest response, never in tests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Aes128Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { Encoder } from 'cbor-x';
import { receiveAnnexCRequest, sessionTranscriptBytes } from '@vp-authorizer/testing';
import { DEFAULT_BODY_LIMIT_BYTES, type CoreResponse } from '@vp-authorizer/core/http';
import { FormatFailure } from '../../packages/core/src/formats/format-error.js';
import { parseMdoc } from '../../packages/core/src/formats/mso-mdoc/parse-mdoc.js';
import { parseSdJwt } from '../../packages/core/src/formats/sd-jwt-vc/parse-sd-jwt.js';
import {
  DCQL_MIXED,
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
import { countCases, measureAsync, measureSync, reportTally } from './__fixtures__/fuzz-harness.js';
import { HOSTILE_DATA_INTEGRITY, bigSdJwt, deepJson, deviceResponse, head, issuerSignedItem, nestedTag24, sdJwtDisclosing, sharedReferenceLaughs, sharedReferences } from './__fixtures__/hostile.js';

let env: FuzzEnv;
const stalls: [string, number, number][] = [];

beforeAll(async () => {
  env = await startFuzzAuthorizer();
}, 60_000);
afterAll(async () => {
  console.log(`corpora (name, ms stalled, body bytes):\n${stalls.map(([n, ms, size]) => `  ${ms.toFixed(1).padStart(8)} ms  ${String(size).padStart(8)} B  ${n}`).join('\n')}`);
  reportTally('corpora');
  await env?.close();
});

const TIMEOUT = 60_000;

async function pending(body: Record<string, unknown>) {
  const created = await createAuthorization(env, body);
  const { claims } = await fetchRequestObject(env, created.authorizationId!);
  return { id: created.authorizationId!, state: claims.state as string };
}

/** Send one corpus entry; the body must fit the limit (otherwise this would only test the 413). */
async function send(name: string, method: string, path: string, type: string, body: string, opts: { key?: string | null } = {}): Promise<CoreResponse> {
  const bytes = Buffer.byteLength(body);
  expect(bytes, `${name} must fit the body limit`).toBeLessThanOrEqual(DEFAULT_BODY_LIMIT_BYTES);
  countCases(1);
  const request = env.req(method, path, { ...opts, type, body: type.includes('json') ? jsonBody(body) : formBody(body) });
  const before = env.unexpected.length;
  const { outcome, stallMs } = await measureAsync(`corpus: ${name}`, () => `${name} (${bytes} B)`, () => env.handle(request));
  stalls.push([name, stallMs, bytes]);
  expect(outcome.ok).toBe(true);
  const res = (outcome as { value: CoreResponse }).value;
  expectContract(path, method, res);
  expect(env.unexpected.slice(before).map(String)).toEqual([]);
  return res;
}

/** A wallet response that must be refused (4xx, still pending) or end rejected/error; never authorized. */
async function expectRefusedOrRejected(id: string, res: CoreResponse): Promise<void> {
  const status = await statusOf(env, id);
  if (res.status >= 400) expect(['pending', 'rejected']).toContain(status);
  else expect(['rejected', 'error']).toContain(status);
  expect(status).not.toBe('authorized');
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** The error codes of an authorization's policy results, in order. */
async function policyCodes(id: string): Promise<string[]> {
  const res = await env.handle(env.req('GET', `${V}/authorizations/${id}/policy-response`));
  expect(res.status, res.body).toBe(200);
  return (JSON.parse(res.body!) as { data: { error?: { code: string } }[] }).data.flatMap((r) => (r.error ? [r.error.code] : []));
}

/** Parser-level check of a DeviceResponse: a FormatFailure (its stall goes to the printed tally). */
function parseDirectly(name: string, b64: string): void {
  countCases(1);
  const { outcome, ms } = measureSync(`corpus parseMdoc: ${name}`, name, () => parseMdoc(b64, { path: ['mdl', 0], queryId: 'mdl', index: 0, format: 'mso_mdoc' }));
  stalls.push([`parseMdoc: ${name}`, ms, b64.length]);
  if (!outcome.ok) expect(outcome.error).toBeInstanceOf(FormatFailure);
}

describe('CBOR bombs in an mdoc vp_token', () => {
  const mdocCorpus: [string, () => string][] = [
    // ~15 KB per item expanding to 5 million nodes; 40 items.
    ['shared references (tag 28/29) × 5000 in 40 items', () => deviceResponse(Array.from({ length: 40 }, (_, i) => issuerSignedItem(sharedReferences(1000, 5000), i)))],
    ['exponential shared references, 2^40 leaves', () => deviceResponse([issuerSignedItem(sharedReferenceLaughs(40))])],
    ['~700 KB of nested tag 24 as an element value', () => deviceResponse([issuerSignedItem(nestedTag24(700_000))])],
    ['~700 KB of nested tag 24 as the item itself', () => deviceResponse([nestedTag24(700_000)])],
    ['documents array declaring 2^32-1 entries', () => deviceResponse([], head(4, 0xffffffff))],
    ['documents array declaring 2^63 entries (8-byte length)', () => deviceResponse([], head(4, 1n << 63n, true))],
    ['byte string declaring 2^53 bytes', () => deviceResponse([issuerSignedItem(Buffer.concat([head(2, 2n ** 53n, true), Buffer.from([1, 2, 3])]))])],
    ['map declaring 2^32-1 pairs', () => deviceResponse([issuerSignedItem(Buffer.concat([head(5, 0xffffffff), Buffer.from([1, 1])]))])],
    ['700 K nested indefinite-length arrays', () => deviceResponse([issuerSignedItem(Buffer.alloc(700_000, 0x9f))])],
    ['unterminated indefinite array of 700 K integers', () => deviceResponse([issuerSignedItem(Buffer.concat([Buffer.from([0x9f]), Buffer.alloc(700_000, 0x00)]))])],
    ['definite array of 700 K integers (wide)', () => deviceResponse([issuerSignedItem(Buffer.concat([head(4, 700_000), Buffer.alloc(700_000, 0x00)]))])],
    ['8,000 issuer-signed items', () => deviceResponse(Array.from({ length: 8_000 }, (_, i) => issuerSignedItem(Buffer.from([0x61, 0x78]), i)))],
  ];

  for (const [name, build] of mdocCorpus) {
    it(`${name}: refused or rejected over direct_post, parser fails typed`, { timeout: TIMEOUT }, async () => {
      const b64 = build();
      parseDirectly(name, b64);
      const auth = await pending({ responseMode: 'direct_post', query: { type: 'DCQL', dcql: DCQL_MIXED } });
      const res = await send(name, 'POST', `${V}/${auth.id}/direct_post`, 'application/x-www-form-urlencoded', form({ vp_token: JSON.stringify({ mdl: [b64] }), state: auth.state }));
      await expectRefusedOrRejected(auth.id, res);
    });
  }
});

describe('CBOR bombs in an org-iso-mdoc (Annex C) response', () => {
  const ORIGIN = 'https://rp.example';
  const annexCQuery = { credentials: [DCQL_MIXED.credentials[1]!] };
  const hpke = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes128Gcm() });
  const cborEncoder = new Encoder({ useRecords: false, tagUint8Array: false, mapsAsObjects: false, variableMapSize: true });

  async function annexCAuthorization() {
    const created = await createAuthorization(env, { responseMode: 'dc_api', protocol: 'org-iso-mdoc', expectedOrigins: [ORIGIN], query: { type: 'DCQL', dcql: annexCQuery } });
    return { id: created.authorizationId!, encryptionInfo: (created.digitalCredentialGetRequest as unknown as { data: { encryptionInfo: string } }).data.encryptionInfo };
  }

  /** The bomb as a wallet would send it: sealed to the authorization's key with the right SessionTranscript, so it is decrypted and decoded. */
  async function sealed(encryptionInfo: string, plaintext: Uint8Array): Promise<string> {
    const { recipientPublicJwk } = receiveAnnexCRequest({ protocol: 'org-iso-mdoc', data: { deviceRequest: DEVICE_REQUEST, encryptionInfo } });
    const info = await sessionTranscriptBytes({ kind: 'annex_c', origin: ORIGIN, encryptionInfo });
    const recipientPublicKey = await hpke.kem.importKey('jwk', recipientPublicJwk, true);
    const out = await hpke.seal({ recipientPublicKey, info: info.slice().buffer as ArrayBuffer }, plaintext.slice().buffer as ArrayBuffer);
    return Buffer.from(cborEncoder.encode(['dcapi', new Map<string, Uint8Array>([['enc', new Uint8Array(out.enc)], ['cipherText', new Uint8Array(out.ct)]])])).toString('base64url');
  }
  // A DeviceRequest only to satisfy the reader; the recipient key comes from encryptionInfo.
  const DEVICE_REQUEST = Buffer.from(cborEncoder.encode(new Map<string, unknown>([['version', '1.0'], ['docRequests', []]]))).toString('base64url');

  const dcApiBody = (response: string) => JSON.stringify({ origin: ORIGIN, digitalCredentialGetResponse: { protocol: 'org-iso-mdoc', data: { response } } });

  // Each bomb with the codes it ends with: sealed, it is decrypted and then handled exactly as the
  // same DeviceResponse in an OpenID4VP vp_token (the format policy's one decoding, its budget).
  const bombs: [string, () => string, string | string[]][] = [
    ['shared references (tag 28/29) × 5000 in 40 items', () => deviceResponse(Array.from({ length: 40 }, (_, i) => issuerSignedItem(sharedReferences(1000, 5000), i))), 'format.mdoc_malformed'],
    ['exponential shared references, 2^40 leaves', () => deviceResponse([issuerSignedItem(sharedReferenceLaughs(40))]), 'format.mdoc_malformed'],
    ['~500 KB of nested tag 24 as the item itself', () => deviceResponse([nestedTag24(500_000)]), 'format.mdoc_malformed'],
    ['documents array declaring 2^32-1 entries', () => deviceResponse([], head(4, 0xffffffff)), 'format.mdoc_malformed'],
    ['500 K nested indefinite-length arrays', () => deviceResponse([issuerSignedItem(Buffer.alloc(500_000, 0x9f))]), 'format.mdoc_malformed'],
    ['definite array of 690 K integers (~1 MiB sealed and base64url-encoded)', () => deviceResponse([issuerSignedItem(Buffer.concat([head(4, 690_000), Buffer.alloc(690_000, 0x00)]))]), 'format.cbor_budget_exceeded'],
    // Within every bound: decoded, then refused by the validator and the verifier (no real issuerAuth).
    ['8,000 issuer-signed items', () => deviceResponse(Array.from({ length: 8_000 }, (_, i) => issuerSignedItem(Buffer.from([0x61, 0x78]), i))), ['credential_query.holder_binding_missing', 'mdoc.invalid', 'credential_query.unsatisfied']],
  ];
  for (const [name, build, expected] of bombs) {
    const codes = typeof expected === 'string' ? [expected] : expected;
    it(`${name}, HPKE-sealed to the authorization: rejected with ${codes.join(', ')}, as the same DeviceResponse over direct_post`, { timeout: TIMEOUT }, async () => {
      const b64 = build();
      const auth = await annexCAuthorization();
      const response = await sealed(auth.encryptionInfo, Buffer.from(b64, 'base64url'));
      const res = await send(`annex C sealed: ${name}`, 'POST', `${V}/${auth.id}/dc_api`, 'application/json', dcApiBody(response));
      expect(res.status).toBeLessThan(500);
      expect(await statusOf(env, auth.id)).toBe('rejected');
      expect(await policyCodes(auth.id)).toEqual(codes);

      const unsealed = await pending({ responseMode: 'direct_post', query: { type: 'DCQL', dcql: annexCQuery } });
      await send(`annex C bomb unsealed over direct_post: ${name}`, 'POST', `${V}/${unsealed.id}/direct_post`, 'application/x-www-form-urlencoded', form({ vp_token: JSON.stringify({ mdl: [b64] }), state: unsealed.state }));
      expect(await statusOf(env, unsealed.id)).toBe('rejected');
      expect(await policyCodes(unsealed.id)).toEqual(codes);
    });
  }

  const envelopes: [string, () => string][] = [
    ['a ~1 MiB response of nested indefinite-length arrays as the envelope', () => Buffer.alloc(760_000, 0x9f).toString('base64url')],
    ['an envelope whose cipherText declares 2^53 bytes', () => Buffer.concat([Buffer.from([0x82, 0x65]), Buffer.from('dcapi'), Buffer.from([0xa1, 0x6a]), Buffer.from('cipherText'), head(2, 2n ** 53n, true), Buffer.alloc(16)]).toString('base64url')],
    ['an mdoc bomb sent bare instead of an envelope', () => deviceResponse(Array.from({ length: 40 }, (_, i) => issuerSignedItem(sharedReferences(1000, 5000), i)))],
    ['a ~1 MiB cipherText under a valid envelope (decrypts to nothing)', () => Buffer.from(cborEncoder.encode(['dcapi', new Map<string, Uint8Array>([['enc', Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)])], ['cipherText', Buffer.alloc(760_000, 7)]])])).toString('base64url')],
  ];
  for (const [name, build] of envelopes) {
    it(`${name}: 400 annex_c_malformed or annex_c_decryption_failed, still pending`, { timeout: TIMEOUT }, async () => {
      const auth = await annexCAuthorization();
      const res = await send(`annex C envelope: ${name}`, 'POST', `${V}/${auth.id}/dc_api`, 'application/json', dcApiBody(build()));
      expect(res.status).toBe(400);
      expect(['authorization.annex_c_malformed', 'authorization.annex_c_decryption_failed']).toContain((JSON.parse(res.body as string) as { type: string }).type);
      expect(await statusOf(env, auth.id)).toBe('pending');
    });
  }
});

describe('Data Integrity documents that are costly to expand or canonicalize (ldp_vc)', () => {
  const LDP_DCQL = { credentials: [{ id: 'vc', format: 'ldp_vc', require_cryptographic_holder_binding: false }] };

  for (const [name, build, code] of HOSTILE_DATA_INTEGRITY) {
    it(`${name}: rejected with ${code}`, { timeout: TIMEOUT }, async () => {
      const auth = await pending({ responseMode: 'direct_post', query: { type: 'DCQL', dcql: LDP_DCQL } });
      const res = await send(`ldp_vc ${name}`, 'POST', `${V}/${auth.id}/direct_post`, 'application/x-www-form-urlencoded', form({ vp_token: JSON.stringify({ vc: [build()] }), state: auth.state }));
      // A rejected presentation is answered 400 (authorization.presentation_rejected).
      expect(res.status).toBe(400);
      expect(await statusOf(env, auth.id)).toBe('rejected');
      const policy = await env.handle(env.req('GET', `${V}/authorizations/${auth.id}/policy-response`));
      const codes = (JSON.parse(policy.body!) as { data: { error?: { code: string } }[] }).data.flatMap((r) => (r.error ? [r.error.code] : []));
      expect(codes).toContain(code);
    });
  }
});

describe('Presentation Exchange amplification', () => {
  it('1000 descriptor_map entries all pointing at one 400 KB SD-JWT vp_token: refused or rejected', { timeout: TIMEOUT }, async () => {
    const auth = await pending({ responseMode: 'direct_post', query: { type: 'DIF.PresentationExchange', presentationDefinition: PE_DEFINITION } });
    const vpToken = bigSdJwt(4000, 60);
    expect(vpToken.length).toBeGreaterThan(400_000);
    const submission = { id: 's', definition_id: 'pd', descriptor_map: Array.from({ length: 1000 }, () => ({ id: 'd1', format: 'vc+sd-jwt', path: '$' })) };
    const res = await send('PE 1000 × "$" over a 400 KB SD-JWT', 'POST', `${V}/${auth.id}/direct_post`, 'application/x-www-form-urlencoded', form({ vp_token: vpToken, presentation_submission: JSON.stringify(submission), state: auth.state }));
    await expectRefusedOrRejected(auth.id, res);
  });

  it('1000 descriptor_map entries, one per element of a 1000-element vp_token array: refused or rejected', { timeout: TIMEOUT }, async () => {
    const auth = await pending({ responseMode: 'direct_post', query: { type: 'DIF.PresentationExchange', presentationDefinition: PE_DEFINITION } });
    const one = bigSdJwt(4, 60);
    const submission = { id: 's', definition_id: 'pd', descriptor_map: Array.from({ length: 1000 }, (_, i) => ({ id: 'd1', format: 'vc+sd-jwt', path: `$[${i}]` })) };
    const res = await send('PE 1000 × "$[n]"', 'POST', `${V}/${auth.id}/direct_post`, 'application/x-www-form-urlencoded', form({ vp_token: JSON.stringify(Array.from({ length: 1000 }, () => one)), presentation_submission: JSON.stringify(submission), state: auth.state }));
    await expectRefusedOrRejected(auth.id, res);
  });
});

describe('Presentation Exchange filter patterns, and queries times values', () => {
  const definition = (pattern: string) => ({ id: 'pd', input_descriptors: [{ id: 'pid', format: { 'vc+sd-jwt': {} }, constraints: { fields: [{ path: ['$.given_name'], filter: { type: 'string', pattern } }] } }] });
  const submission = JSON.stringify({ id: 's', definition_id: 'pd', descriptor_map: [{ id: 'pid', format: 'vc+sd-jwt', path: '$' }] });

  // A backtracking engine holds the loop ~1 s on the first, doubling per character; forever on
  // the second; ~40 s on the third. The validator here trusts every issuer, so each is evaluated.
  const corpus: [string, string, string, string][] = [
    ['^(\\w+\\s?)*$ on 26 × a + "!"', '^(\\w+\\s?)*$', `${'a'.repeat(26)}!`, 'presentation_exchange.fields_unsatisfied'],
    ['^(\\w+\\s?)*$ on 4,095 × a + "!"', '^(\\w+\\s?)*$', `${'a'.repeat(4_095)}!`, 'presentation_exchange.fields_unsatisfied'],
    ['^\\d+\\s*\\d+\\s*\\d+$ on 4,095 digits + "x"', '^\\d+\\s*\\d+\\s*\\d+$', `${'1'.repeat(4_095)}x`, 'presentation_exchange.fields_unsatisfied'],
    ['^[a-z]{0,490}$ (the program limit) on 1,000 × a + "!"', '^[a-z]{0,490}$', `${'a'.repeat(1_000)}!`, 'presentation_exchange.fields_unsatisfied'],
    ['^[a-z]{0,490}$ on 4,096 × a: past the budget', '^[a-z]{0,490}$', 'a'.repeat(4_096), 'presentation_exchange.match_budget_exceeded'],
  ];
  for (const [name, pattern, value, code] of corpus) {
    it(`${name}: answered by the linear-time engine (${code}), refused or rejected`, { timeout: TIMEOUT }, async () => {
      const auth = await pending({ responseMode: 'direct_post', query: { type: 'DIF.PresentationExchange', presentationDefinition: definition(pattern) } });
      const res = await send(`PE pattern ${name}`, 'POST', `${V}/${auth.id}/direct_post`, 'application/x-www-form-urlencoded', form({ vp_token: sdJwtDisclosing({ given_name: value }), presentation_submission: submission, state: auth.state }));
      await expectRefusedOrRejected(auth.id, res);
      expect(await policyCodes(auth.id)).toContain(code);
    });
  }

  it('1,500 fields of $.* (a query near the 64 KiB cap) over 1,000 disclosed claims: matching stops at the response budget', { timeout: TIMEOUT }, async () => {
    const fields = Array.from({ length: 1_500 }, () => ({ path: ['$.*'], filter: { const: 'x' } }));
    const auth = await pending({ responseMode: 'direct_post', query: { type: 'DIF.PresentationExchange', presentationDefinition: { id: 'pd', input_descriptors: [{ id: 'pid', constraints: { fields } }] } } });
    const claims = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`claim_${i}`, `value ${i}`]));
    const res = await send('PE 1,500 fields × 1,000 claims', 'POST', `${V}/${auth.id}/direct_post`, 'application/x-www-form-urlencoded', form({ vp_token: sdJwtDisclosing(claims), presentation_submission: submission, state: auth.state }));
    await expectRefusedOrRejected(auth.id, res);
    expect(await policyCodes(auth.id)).toContain('presentation_exchange.match_budget_exceeded');
  });

  it('DCQL: 1,200 claims of [list, null] (a query near the 64 KiB cap) over a 1,000-element list: matching stops at the response budget', { timeout: TIMEOUT }, async () => {
    const claims = Array.from({ length: 1_200 }, (_, i) => ({ id: `c${i}`, path: ['list', null], values: ['x'] }));
    const auth = await pending({ responseMode: 'direct_post', query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims }] } } });
    const list = Array.from({ length: 1_000 }, (_, i) => `value ${i}`);
    const res = await send('DCQL 1,200 claims × 1,000 values', 'POST', `${V}/${auth.id}/direct_post`, 'application/x-www-form-urlencoded', form({ vp_token: JSON.stringify({ pid: [sdJwtDisclosing({ list })] }), state: auth.state }));
    await expectRefusedOrRejected(auth.id, res);
    expect(await policyCodes(auth.id)).toContain('credential_query.match_budget_exceeded');
  });

  it('patterns a linear-time engine cannot run, or past the definition limits, are refused at creation', { timeout: TIMEOUT }, async () => {
    for (const pattern of ['^(a+)\\1$', '^(?=a)(\\w+\\s?)*$', '(?<!x)y', Array.from({ length: 60 }, (_, i) => `${String.fromCharCode(97 + (i % 26))}{1000}`).join('|')]) {
      const body = JSON.stringify({ responseMode: 'direct_post', query: { type: 'DIF.PresentationExchange', presentationDefinition: definition(pattern) } });
      const res = await send(`create with pattern ${pattern.slice(0, 24)}`, 'POST', `${V}/authorizations`, 'application/json', body);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body!)).toMatchObject({ type: 'request.unsupported_pattern', errors: [{ pointer: '/query/presentationDefinition/input_descriptors/0/constraints/fields/0/filter/pattern' }] });
    }
  });
});

describe('deep and wide JSON', () => {
  const deep = deepJson(10_000, 1_000_000);

  it('1 MB JSON nested 10,000 deep to create, resolve and the DC API: 400', { timeout: TIMEOUT }, async () => {
    expect(deep.length).toBeGreaterThan(990_000);
    for (const path of [`${V}/authorizations`, `${V}/response-code/resolve`]) {
      const res = await send(`deep JSON → ${path}`, 'POST', path, 'application/json', deep);
      expect(res.status).toBe(400);
    }
    const dc = await createAuthorization(env, { responseMode: 'dc_api', protocol: 'openid4vp-v1-unsigned', expectedOrigins: ['https://rp.example'], query: { type: 'DCQL', dcql: DCQL_MIXED } });
    const res = await send('deep JSON → dc_api', 'POST', `${V}/${dc.authorizationId}/dc_api`, 'application/json', `{"origin":"https://rp.example","digitalCredentialGetResponse":${deep}}`);
    await expectRefusedOrRejected(dc.authorizationId!, res);
  });

  it('10,000-deep JSON as vp_token and presentation_submission in a form: refused or rejected', { timeout: TIMEOUT }, async () => {
    const auth = await pending({ responseMode: 'direct_post', query: { type: 'DIF.PresentationExchange', presentationDefinition: PE_DEFINITION } });
    const nested = deepJson(10_000, 300_000);
    const res = await send('deep JSON vp_token + submission', 'POST', `${V}/${auth.id}/direct_post`, 'application/x-www-form-urlencoded', form({ vp_token: nested, presentation_submission: nested, state: auth.state }));
    await expectRefusedOrRejected(auth.id, res);
  });

  it('a create body with 100,000 members and one with 10,000 credential queries: answered, and the request object still signs', { timeout: TIMEOUT }, async () => {
    const wide = JSON.stringify(Object.fromEntries([['responseMode', 'direct_post'], ['query', { type: 'DCQL', dcql: DCQL_MIXED }], ...Array.from({ length: 100_000 }, (_, i) => [i.toString(36), 0])]));
    const a = await send('create with 100k members', 'POST', `${V}/authorizations`, 'application/json', wide);
    expect([201, 400]).toContain(a.status);
    const many = { responseMode: 'direct_post', query: { type: 'DCQL', dcql: { credentials: Array.from({ length: 10_000 }, (_, i) => ({ id: `c${i}`, format: 'dc+sd-jwt', meta: { vct_values: ['u'] } })), credential_sets: [{ options: [Array.from({ length: 10_000 }, (_, i) => `c${i}`)] }] } } };
    const b = await send('create with 10k credential queries', 'POST', `${V}/authorizations`, 'application/json', JSON.stringify(many));
    expect([201, 400]).toContain(b.status);
    if (b.status === 201) {
      const id = (JSON.parse(b.body!) as { authorizationId: string }).authorizationId;
      await send('request object of 10k credential queries', 'POST', `${V}/authorizations/${id}/jwt`, 'application/x-www-form-urlencoded', 'wallet_nonce=n', { key: null });
    }
  });
});

describe('forms with 100,000 parameters', () => {
  const params = (n: number, name = (i: number) => `p${i}`) => Array.from({ length: n }, (_, i) => `${name(i)}=`).join('&');

  it('direct_post with 100,000 distinct parameters: refused or rejected', { timeout: TIMEOUT }, async () => {
    const auth = await pending({ responseMode: 'direct_post', query: { type: 'DCQL', dcql: DCQL_MIXED } });
    const res = await send('direct_post 100k params', 'POST', `${V}/${auth.id}/direct_post`, 'application/x-www-form-urlencoded', `${params(100_000)}&${form({ vp_token: '{"pid":"x~"}', state: auth.state })}`);
    await expectRefusedOrRejected(auth.id, res);
  });

  it('direct_post with one parameter repeated 100,000 times: 400 and still pending', { timeout: TIMEOUT }, async () => {
    const auth = await pending({ responseMode: 'direct_post', query: { type: 'DCQL', dcql: DCQL_MIXED } });
    const res = await send('direct_post state × 100k', 'POST', `${V}/${auth.id}/direct_post`, 'application/x-www-form-urlencoded', params(100_000, () => 'state'));
    expect(res.status).toBe(400);
    expect(await statusOf(env, auth.id)).toBe('pending');
  });

  it('request object POST with 150,000 short parameters (750 KB): answered', { timeout: TIMEOUT }, async () => {
    const a = await createAuthorization(env, { responseMode: 'direct_post', query: { type: 'DCQL', dcql: DCQL_MIXED } });
    await send('request object 150k params', 'POST', `${V}/authorizations/${a.authorizationId}/jwt`, 'application/x-www-form-urlencoded', params(150_000, (i) => i.toString(36)), { key: null });
  });

  it('request object POST with a 1 MB wallet_metadata of 50,000 formats (HAIP checks it): answered', { timeout: TIMEOUT }, async () => {
    const b = await createAuthorization(env, { responseMode: 'direct_post.jwt', profile: 'haip', query: { type: 'DCQL', dcql: { credentials: [DCQL_MIXED.credentials[0]] } } });
    const metadata = { vp_formats_supported: Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`f${i}`, { alg: ['ES256'] }])), client_id_prefixes_supported: Array.from({ length: 1000 }, (_, i) => `x${i}`) };
    const text = form({ wallet_metadata: JSON.stringify(metadata), wallet_nonce: 'n' });
    await send('request object 1 MB wallet_metadata', 'POST', `${V}/authorizations/${b.authorizationId}/jwt`, 'application/x-www-form-urlencoded', text.slice(0, DEFAULT_BODY_LIMIT_BYTES), { key: null });
  });
});

describe('oversized SD-JWTs', () => {
  it('parseSdJwt on a 970 KB SD-JWT with 10,000 one-byte disclosures is answered (a value or a FormatFailure)', { timeout: TIMEOUT }, () => {
    const sdJwt = bigSdJwt(10_000, 1);
    expect(sdJwt.length).toBeLessThan(DEFAULT_BODY_LIMIT_BYTES);
    countCases(1);
    const { outcome, ms } = measureSync('corpus parseSdJwt: 10k disclosures', `SD-JWT 10k disclosures (${sdJwt.length} B)`, () => parseSdJwt(sdJwt, { path: ['pid', 0], queryId: 'pid', index: 0, format: 'dc+sd-jwt' }));
    stalls.push(['parseSdJwt: 10k disclosures', ms, sdJwt.length]);
    if (!outcome.ok) expect(outcome.error).toBeInstanceOf(FormatFailure);
  });

  it('the same 10,000-disclosure SD-JWT forwarded raw in a DC API JSON body: refused or rejected', { timeout: TIMEOUT }, async () => {
    const dc = await createAuthorization(env, { responseMode: 'dc_api', protocol: 'openid4vp-v1-unsigned', expectedOrigins: ['https://rp.example'], query: { type: 'DCQL', dcql: DCQL_MIXED } });
    const body = JSON.stringify({ origin: 'https://rp.example', digitalCredentialGetResponse: { vp_token: { pid: [bigSdJwt(10_000, 1)] } } });
    const res = await send('DC API SD-JWT 10k disclosures', 'POST', `${V}/${dc.authorizationId}/dc_api`, 'application/json', body);
    await expectRefusedOrRejected(dc.authorizationId!, res);
  });

  it('an SD-JWT with 9,000 disclosures (~1 MB form): refused or rejected', { timeout: TIMEOUT }, async () => {
    const auth = await pending({ responseMode: 'direct_post', query: { type: 'DCQL', dcql: DCQL_MIXED } });
    const sdJwt = bigSdJwt(9_000, 1);
    const res = await send('SD-JWT 9k disclosures', 'POST', `${V}/${auth.id}/direct_post`, 'application/x-www-form-urlencoded', form({ vp_token: JSON.stringify({ pid: [sdJwt] }), state: auth.state }));
    await expectRefusedOrRejected(auth.id, res);
  });

  it('an SD-JWT with 2500 disclosures of 200 bytes (~900 KB): refused or rejected', { timeout: TIMEOUT }, async () => {
    const auth = await pending({ responseMode: 'direct_post', query: { type: 'DCQL', dcql: DCQL_MIXED } });
    const sdJwt = bigSdJwt(2500, 200);
    const res = await send('SD-JWT 2500 × 200 B disclosures', 'POST', `${V}/${auth.id}/direct_post`, 'application/x-www-form-urlencoded', form({ vp_token: JSON.stringify({ pid: [sdJwt] }), state: auth.state }));
    await expectRefusedOrRejected(auth.id, res);
  });
});
