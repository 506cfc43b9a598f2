import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthorizationQuery, DcqlQuery, JsonObject, ParsedPresentation, PolicyResult, PresentationDefinition } from '@vp-authorizer/core';
import { ConfigError } from '@vp-authorizer/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtVc, ldp } from './__fixtures__/presentations.js';
import { localValidator } from './index.js';

const signal = new AbortController().signal;
const V2 = 'https://www.w3.org/ns/credentials/v2';
const UNDEFINED_TERMS = 'https://www.w3.org/ns/credentials/undefined-terms/v2';
const VC_IRI = 'https://www.w3.org/2018/credentials#VerifiableCredential';
// OpenID4VP 1.0 B.1.1, the spec's own example of type_values.
const SPEC_TYPE_VALUES = [[VC_IRI, 'https://www.w3.org/ns/credentials/undefined-term#ExamplePersonCredential']];

const person = (extra: JsonObject = {}): JsonObject => ({
  '@context': [V2, UNDEFINED_TERMS],
  type: ['VerifiableCredential', 'ExamplePersonCredential'],
  issuer: 'did:example:issuer',
  credentialSubject: { id: 'did:example:holder', name: 'Jane Doe' },
  ...extra,
});

const query = (format: string, typeValues: string[][]): DcqlQuery => ({ credentials: [{ id: 'p', format, meta: { type_values: typeValues }, require_cryptographic_holder_binding: false }] });
const run = (dcql: DcqlQuery | AuthorizationQuery, presentations: ParsedPresentation[], validator = localValidator()) =>
  validator.validate({ authorizationId: 'a1', query: 'credentials' in dcql ? { type: 'DCQL', dcql } : dcql, presentations }, { signal });
const failure = (results: PolicyResult[], path: (string | number)[] = ['p', 0]) => results.find((r) => r.policy === 'credentialQuery' && JSON.stringify(r.path) === JSON.stringify(path))?.error;
const errorCodes = (results: PolicyResult[]) => results.filter((r) => r.error).map((r) => r.error?.code);

/** Answers every context request; it must never see one. */
let hits = 0;
const server = createServer((_req, res) => {
  hits++;
  res.writeHead(200, { 'content-type': 'application/ld+json' }).end(JSON.stringify({ '@context': { '@vocab': 'https://evil.example/#' } }));
});
let contextServer: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  contextServer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/context`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('DCQL type_values are matched against the types expanded with the credential @context', () => {
  it('the spec example matches an ldp_vc of exactly those types', async () => {
    expect(errorCodes(await run(query('ldp_vc', SPEC_TYPE_VALUES), [ldp('p', person())]))).toEqual([]);
  });

  it('each inner array is a subset of the expanded types; one matching alternative suffices', async () => {
    const other = [VC_IRI, 'https://www.w3.org/ns/credentials/undefined-term#ExampleDegreeCredential'];
    expect(errorCodes(await run(query('ldp_vc', [other, [VC_IRI]]), [ldp('p', person())]))).toEqual([]);
    const refused = await run(query('ldp_vc', [other]), [ldp('p', person())]);
    expect(failure(refused)).toMatchObject({ code: 'credential_query.meta_mismatch' });
    expect(failure(refused)?.errors?.[0]?.pointer).toBe('/credentials/0/meta/type_values');
  });

  it('the same term means what the credential @context says: another @vocab gives another IRI', async () => {
    const elsewhere = person({ '@context': [V2, { '@vocab': 'https://issuer.example/vocab#' }] });
    expect(failure(await run(query('ldp_vc', SPEC_TYPE_VALUES), [ldp('p', elsewhere)]))?.code).toBe('credential_query.meta_mismatch');
    expect(errorCodes(await run(query('ldp_vc', [[VC_IRI, 'https://issuer.example/vocab#ExamplePersonCredential']]), [ldp('p', elsewhere)]))).toEqual([]);
  });

  it('a term no context defines has no IRI and matches nothing', async () => {
    const undefinedTerm = person({ '@context': [V2] });
    expect(failure(await run(query('ldp_vc', SPEC_TYPE_VALUES), [ldp('p', undefinedTerm)]))?.code).toBe('credential_query.meta_mismatch');
    expect(errorCodes(await run(query('ldp_vc', [[VC_IRI]]), [ldp('p', undefinedTerm)]))).toEqual([]);
  });

  it('jwt_vc_json: a credential with @context is expanded (VCDM 1.1 and 2.0); one without has no IRIs', async () => {
    const v11 = { '@context': ['https://www.w3.org/2018/credentials/v1', UNDEFINED_TERMS], type: ['VerifiableCredential', 'ExamplePersonCredential'], credentialSubject: { id: 'did:example:holder' } };
    expect(errorCodes(await run(query('jwt_vc_json', SPEC_TYPE_VALUES), [jwtVc('p', v11)]))).toEqual([]);
    expect(errorCodes(await run(query('jwt_vc_json', SPEC_TYPE_VALUES), [jwtVc('p', person())]))).toEqual([]);
    const bare = await run(query('jwt_vc_json', [[VC_IRI]]), [jwtVc('p', { type: ['VerifiableCredential'], credentialSubject: {} })]);
    expect(failure(bare)).toMatchObject({ code: 'credential_query.meta_mismatch', detail: expect.stringContaining('no @context') });
  });

  it('a context outside the bundled and configured set refuses the credential and is never fetched', async () => {
    const unknown = person({ '@context': [V2, contextServer] });
    const results = await run(query('ldp_vc', SPEC_TYPE_VALUES), [ldp('p', unknown)]);
    expect(failure(results)?.code).toBe('data_integrity.context_unknown');
    // Inside an embedded context too (a scoped context naming a URL).
    const scoped = person({ '@context': [V2, { ExamplePersonCredential: { '@id': 'https://issuer.example/P', '@context': contextServer } }] });
    expect(failure(await run(query('ldp_vc', SPEC_TYPE_VALUES), [ldp('p', scoped)]))?.code).toBe('data_integrity.context_unknown');
    expect(hits).toBe(0);
  });

  it('a configured context is used; a bundled one cannot be replaced', async () => {
    const validator = localValidator({ contexts: { [contextServer]: { '@context': { '@vocab': 'https://configured.example/#' } } } });
    const configured = person({ '@context': [V2, contextServer] });
    expect(errorCodes(await run(query('ldp_vc', [[VC_IRI, 'https://configured.example/#ExamplePersonCredential']]), [ldp('p', configured)], validator))).toEqual([]);
    expect(hits).toBe(0);
    expect(() => localValidator({ contexts: { [V2]: { '@context': {} } } })).toThrow(ConfigError);
    expect(() => localValidator({ contexts: { [contextServer]: {} } })).toThrow(/@context member/);
  });

  it('expansion stays within the document limits and the response budget', async () => {
    const wide = person({ type: ['VerifiableCredential', ...Array.from({ length: 200 }, (_, i) => `T${i}`)] });
    expect(failure(await run(query('ldp_vc', SPEC_TYPE_VALUES), [ldp('p', wide)]))?.code).toBe('data_integrity.limit_exceeded');
    // Scoped contexts cost most to process: charged per embedded context, the response runs out.
    // Each credential different: a remembered expansion costs nothing.
    let unique = 0;
    const scopedTerms = () => Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`t${i}`, { '@id': `https://e.example/${unique++}/t${i}`, '@context': { [`u${i}`]: `https://e.example/u${i}` } }]));
    const heavy = (i: number) => ldp('p', person({ '@context': [V2, UNDEFINED_TERMS, scopedTerms()] }), { index: i });
    const multiple: DcqlQuery = { credentials: [{ ...query('ldp_vc', SPEC_TYPE_VALUES).credentials[0]!, multiple: true }] };
    expect(errorCodes(await run(multiple, [heavy(0)]))).toEqual([]);
    // Two spend more than one response may: once spent, nothing of the response is matched.
    const results = await run(multiple, [heavy(0), heavy(1)]);
    // The same credential again and again is expanded once.
    const same = heavy(0);
    expect(errorCodes(await run(multiple, Array.from({ length: 20 }, (_, i) => ({ ...same, index: i, path: ['p', i] }))))).toEqual([]);
    expect(failure(results, ['p', 1])?.code).toBe('credential_query.match_budget_exceeded');
    expect(failure(results, ['p', 0])?.code).toBe('credential_query.match_budget_exceeded');
  });
});

describe('Presentation Exchange filters on $.type see the expanded types', () => {
  const definition = (filter: Record<string, unknown>): AuthorizationQuery => ({
    type: 'DIF.PresentationExchange',
    presentationDefinition: { id: 'd', input_descriptors: [{ id: 'p', format: { ldp_vc: { proof_type: ['DataIntegrityProof'] } }, constraints: { fields: [{ path: ['$.type'], filter }] } }] } as PresentationDefinition,
  });

  it('an IRI filter matches through the credential @context, and a filter on the names as written still does', async () => {
    const iri = { type: 'array', contains: { const: 'https://www.w3.org/ns/credentials/undefined-term#ExamplePersonCredential' } };
    expect(errorCodes(await run(definition(iri), [ldp('p', person())]))).toEqual([]);
    const asWritten = { type: 'array', contains: { const: 'ExamplePersonCredential' } };
    expect(errorCodes(await run(definition(asWritten), [ldp('p', person())]))).toEqual([]);
    const other = { type: 'array', contains: { const: 'https://issuer.example/vocab#ExamplePersonCredential' } };
    expect(failure(await run(definition(other), [ldp('p', person())]))?.code).toBe('presentation_exchange.fields_unsatisfied');
  });

  it('a credential whose context is unknown meets no descriptor that filters on types', async () => {
    const iri = { type: 'array', contains: { const: VC_IRI } };
    expect(failure(await run(definition(iri), [ldp('p', person({ '@context': [V2, contextServer] }))]))?.code).toBe('data_integrity.context_unknown');
    expect(hits).toBe(0);
  });
});
