import { afterEach, describe, expect, it, beforeAll, vi } from 'vitest';
import { ConfigError, type AuthorizationQuery, type DcqlQuery, type ParsedPresentation, type PolicyResult, type PresentationDefinition } from '@vp-authorizer/core';
import { localValidator } from './index.js';
import { jwtVc, jwtVp, ldp, mdoc, sdJwt } from './__fixtures__/presentations.js';
import { authorityKeyIdentifier, createTestCa } from '@vp-authorizer/testing';

const signal = new AbortController().signal;
const dcql = (query: DcqlQuery): AuthorizationQuery => ({ type: 'DCQL', dcql: query });
const run = (query: DcqlQuery, presentations: ParsedPresentation[], transactionData?: string[], validator = localValidator()) =>
  validator.validate({ authorizationId: 'a1', query: dcql(query), presentations, ...(transactionData ? { transactionData } : {}) }, { signal });

const at = (results: PolicyResult[], path: (string | number)[], policy = 'credentialQuery') => results.find((r) => r.policy === policy && JSON.stringify(r.path) === JSON.stringify(path));
const errorCodes = (results: PolicyResult[]) => results.filter((r) => r.error).map((r) => r.error?.code);
const allCodes = (result: PolicyResult | undefined) => [result?.error?.code, ...(result?.error?.errors ?? []).map((e) => e.code)];

const VC_IRI = 'https://www.w3.org/2018/credentials#VerifiableCredential';
const V1 = { '@context': ['https://www.w3.org/2018/credentials/v1', { '@vocab': 'https://example.org/types#' }] };

const PID = { id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: [{ path: ['given_name'] }, { path: ['family_name'] }] };

describe('localValidator — DCQL per presentation', () => {
  it('passes a matching SD-JWT VC and reports the whole query satisfied', async () => {
    const results = await run({ credentials: [PID] }, [sdJwt('pid', { given_name: 'Erika', family_name: 'Mustermann' })]);
    expect(errorCodes(results)).toEqual([]);
    expect(at(results, ['pid', 0])?.data).toEqual({ queryId: 'pid' });
    expect(at(results, [])?.data).toMatchObject({ satisfied: true, validQueryIds: ['pid'], discarded: [] });
    expect(results.every((r) => r.service === 'validator')).toBe(true);
  });

  it('accepts the pre-1.0 vc+sd-jwt format for a dc+sd-jwt query', async () => {
    const results = await run({ credentials: [PID] }, [sdJwt('pid', { given_name: 'E', family_name: 'M' }, { format: 'vc+sd-jwt' })]);
    expect(errorCodes(results)).toEqual([]);
  });

  it('rejects a presentation in another format', async () => {
    const results = await run({ credentials: [PID] }, [mdoc('pid', { ns: { given_name: 'E' } })]);
    expect(at(results, ['pid', 0])?.error?.code).toBe('credential_query.format_mismatch');
    expect(at(results, [])?.error?.code).toBe('credential_query.unsatisfied');
  });

  it('matches vct exactly (a subtype is not accepted)', async () => {
    const results = await run({ credentials: [PID] }, [sdJwt('pid', { given_name: 'E', family_name: 'M' }, { vct: 'urn:eudi:pid:1:de' })]);
    expect(at(results, ['pid', 0])?.error).toMatchObject({ code: 'credential_query.meta_mismatch', type: 'https://vp-authorizer.dev/errors/credential_query.meta_mismatch' });
  });

  it('checks the mdoc doctype and [namespace, element] paths', async () => {
    const query = { id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: 'org.iso.18013.5.1.mDL' }, claims: [{ path: ['org.iso.18013.5.1', 'age_over_18'], values: [true] }] };
    const ok = await run({ credentials: [query] }, [mdoc('mdl', { 'org.iso.18013.5.1': { age_over_18: true } })]);
    expect(errorCodes(ok)).toEqual([]);
    const wrongDoc = await run({ credentials: [query] }, [mdoc('mdl', { 'org.iso.18013.5.1': { age_over_18: true } }, { docType: 'eu.europa.ec.eudi.pid.1' })]);
    expect(at(wrongDoc, ['mdl', 0])?.error?.code).toBe('credential_query.meta_mismatch');
    const wrongNs = await run({ credentials: [query] }, [mdoc('mdl', { 'org.iso.18013.5.1.aamva': { age_over_18: true } })]);
    expect(at(wrongNs, ['mdl', 0])?.error?.code).toBe('credential_query.claims_unsatisfied');
    const wrongValue = await run({ credentials: [query] }, [mdoc('mdl', { 'org.iso.18013.5.1': { age_over_18: false } })]);
    expect(at(wrongValue, ['mdl', 0])?.error?.code).toBe('credential_query.value_mismatch');
  });

  it('applies the W3C type_values rule and starts claim paths at the credential object', async () => {
    const query = {
      id: 'diploma',
      format: 'jwt_vc_json',
      meta: { type_values: [[VC_IRI, 'https://example.org/types#UniversityDegree'], [VC_IRI, 'https://example.org/types#Diploma']] },
      claims: [{ path: ['credentialSubject', 'degree', 'name'] }],
    };
    const vc = { ...V1, type: ['VerifiableCredential', 'Diploma', 'Extra'], credentialSubject: { degree: { name: 'BSc' } } };
    expect(errorCodes(await run({ credentials: [query] }, [jwtVp('diploma', [vc])]))).toEqual([]);
    const partial = await run({ credentials: [query] }, [jwtVp('diploma', [{ ...vc, type: ['VerifiableCredential', 'University'] }])]);
    expect(at(partial, ['diploma', 0])?.error?.code).toBe('credential_query.meta_mismatch');
    // A path through the VP or the JWT `vc` wrapper is not where DCQL paths start.
    const wrapped = await run({ credentials: [{ ...query, claims: [{ path: ['vc', 'credentialSubject', 'degree', 'name'] }] }] }, [jwtVp('diploma', [vc])]);
    expect(at(wrapped, ['diploma', 0])?.error?.code).toBe('credential_query.claims_unsatisfied');
  });

  it('reports every missing claim without claim_sets, with query pointers and no values', async () => {
    const results = await run({ credentials: [PID] }, [sdJwt('pid', { birthdate: '1964-08-12' })]);
    const error = at(results, ['pid', 0])?.error;
    expect(error?.code).toBe('credential_query.claims_unsatisfied');
    expect(error?.errors?.map((e) => e.pointer)).toEqual(['/credentials/0/claims/0', '/credentials/0/claims/1']);
  });

  it('checks values itself and never echoes claim values in the error', async () => {
    const query = { ...PID, claims: [{ path: ['nationality'], values: ['DE', 'AT'] }] };
    const results = await run({ credentials: [query] }, [sdJwt('pid', { nationality: 'SECRET-XY' })]);
    const error = at(results, ['pid', 0])?.error;
    expect(error?.code).toBe('credential_query.value_mismatch');
    expect(JSON.stringify(results)).not.toContain('SECRET-XY');
    expect(JSON.stringify(error)).not.toContain('"DE"');
    // Type matters: the number 18 is not the string "18".
    const typed = await run({ credentials: [{ ...PID, claims: [{ path: ['age'], values: ['18'] }] }] }, [sdJwt('pid', { age: 18 })]);
    expect(at(typed, ['pid', 0])?.error?.code).toBe('credential_query.value_mismatch');
  });

  it('accepts any satisfied claim set, not only the first', async () => {
    const query = {
      ...PID,
      claims: [
        { id: 'a', path: ['given_name'] },
        { id: 'b', path: ['family_name'] },
        { id: 'c', path: ['birthdate'] },
      ],
      claim_sets: [['a', 'b'], ['c']],
    };
    const second = await run({ credentials: [query] }, [sdJwt('pid', { birthdate: '1964-08-12' })]);
    expect(errorCodes(second)).toEqual([]);
    expect(at(second, ['pid', 0])?.data).toEqual({ queryId: 'pid', claimSets: [1] });
    const none = await run({ credentials: [query] }, [sdJwt('pid', { given_name: 'E' })]);
    const error = at(none, ['pid', 0])?.error;
    expect(error?.code).toBe('credential_query.claims_unsatisfied');
    expect(error?.errors?.[0]?.pointer).toBe('/credentials/0/claim_sets');
  });

  it('resolves null over all array elements and integer indices as "any element" for SD-JWT', async () => {
    const query = { ...PID, claims: [{ path: ['nationalities', null], values: ['DE'] }] };
    expect(errorCodes(await run({ credentials: [query] }, [sdJwt('pid', { nationalities: ['FR', 'DE'] })]))).toEqual([]);
    const indexed = { ...PID, claims: [{ path: ['nationalities', 1] }] };
    // One disclosed element: its index shifted from 1 to 0, it still satisfies index 1.
    expect(errorCodes(await run({ credentials: [indexed] }, [sdJwt('pid', { nationalities: ['DE'] })]))).toEqual([]);
    const notArray = await run({ credentials: [query] }, [sdJwt('pid', { nationalities: 'DE' })]);
    expect(at(notArray, ['pid', 0])?.error?.code).toBe('credential_query.claims_unsatisfied');
  });

  it('keeps integer indices exact for W3C credentials', async () => {
    const query = { id: 'w', format: 'jwt_vc_json', meta: { type_values: [[VC_IRI]] }, require_cryptographic_holder_binding: false, claims: [{ path: ['credentialSubject', 'list', 1] }] };
    const vc = { ...V1, type: ['VerifiableCredential'], credentialSubject: { list: ['only'] } };
    expect(at(await run({ credentials: [query] }, [jwtVc('w', vc)]), ['w', 0])?.error?.code).toBe('credential_query.claims_unsatisfied');
    expect(errorCodes(await run({ credentials: [query] }, [jwtVc('w', { ...vc, credentialSubject: { list: ['a', 'b'] } })]))).toEqual([]);
  });

  it('requires a holder proof unless the query waives it', async () => {
    const noKb = await run({ credentials: [PID] }, [sdJwt('pid', { given_name: 'E', family_name: 'M' }, { kb: false })]);
    expect(at(noKb, ['pid', 0])?.error?.code).toBe('credential_query.holder_binding_missing');
    const waived = await run({ credentials: [{ ...PID, require_cryptographic_holder_binding: false }] }, [sdJwt('pid', { given_name: 'E', family_name: 'M' }, { kb: false })]);
    expect(errorCodes(waived)).toEqual([]);
    const mdl = { id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: 'org.iso.18013.5.1.mDL' } };
    expect(at(await run({ credentials: [mdl] }, [mdoc('mdl', {}, { deviceSignature: false })]), ['mdl', 0])?.error?.code).toBe('credential_query.holder_binding_missing');
    const w3c = { id: 'w', format: 'jwt_vc_json', meta: { type_values: [[VC_IRI]] } };
    expect(at(await run({ credentials: [w3c] }, [jwtVc('w', { ...V1, type: ['VerifiableCredential'] })]), ['w', 0])?.error?.code).toBe('credential_query.holder_binding_missing');
    const ldpQuery = { id: 'l', format: 'ldp_vc', meta: { type_values: [[VC_IRI]] } };
    const vp = { type: ['VerifiablePresentation'], verifiableCredential: [{ ...V1, type: ['VerifiableCredential'] }], proof: { type: 'DataIntegrityProof' } };
    expect(errorCodes(await run({ credentials: [ldpQuery] }, [ldp('l', vp)]))).toEqual([]);
    expect(at(await run({ credentials: [ldpQuery] }, [ldp('l', { ...V1, type: ['VerifiableCredential'] })]), ['l', 0])?.error?.code).toBe('credential_query.holder_binding_missing');
  });

  it('enforces multiple and rejects presentations for unknown query ids', async () => {
    const two = [sdJwt('pid', { given_name: 'E', family_name: 'M' }), sdJwt('pid', { given_name: 'F', family_name: 'N' }, { index: 1 })];
    const single = await run({ credentials: [PID] }, two);
    expect(at(single, ['pid', 1])?.error?.code).toBe('credential_query.cardinality');
    expect(errorCodes(await run({ credentials: [{ ...PID, multiple: true }] }, two))).toEqual([]);
    const unknown = await run({ credentials: [PID] }, [sdJwt('pid', { given_name: 'E', family_name: 'M' }), sdJwt('other', {})]);
    expect(at(unknown, ['other', 0])?.error?.code).toBe('credential_query.unknown_query');
  });

  it('throws (→ status error) for a query whose references are inconsistent', async () => {
    const broken = { ...PID, claims: [{ id: 'a', path: ['given_name'] }], claim_sets: [['a', 'zzz']] };
    await expect(run({ credentials: [broken] }, [sdJwt('pid', { given_name: 'E' })])).rejects.toThrow(/inconsistent/);
  });

  it('honours an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gave up'));
    await expect(localValidator().validate({ authorizationId: 'a', query: dcql({ credentials: [PID] }), presentations: [] }, { signal: controller.signal })).rejects.toThrow('gave up');
  });
});

describe('localValidator — credential sets and the strictness rule', () => {
  // OpenID4VP 1.0 appendix D, credentials_alternatives.
  const cred = (id: string, claims: string[]) => ({ id, format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: claims.map((c) => ({ path: [c] })) });
  const query: DcqlQuery = {
    credentials: [
      cred('pid', ['given_name', 'family_name', 'address']),
      cred('other_pid', ['given_name', 'family_name', 'address']),
      cred('pid_reduced_cred_1', ['family_name', 'given_name']),
      cred('pid_reduced_cred_2', ['address']),
      cred('nice_to_have', ['rewards_number']),
    ],
    credential_sets: [
      { options: [['pid'], ['other_pid'], ['pid_reduced_cred_1', 'pid_reduced_cred_2']] },
      { required: false, options: [['nice_to_have']] },
    ],
  };
  const full = { given_name: 'E', family_name: 'M', address: { street: 'x' } };
  const answer = (id: string, claims: Record<string, unknown>) => sdJwt(id, claims);

  it.each([
    ['{pid}', [answer('pid', full)]],
    ['{other_pid}', [answer('other_pid', full)]],
    ['{pid_reduced_cred_1, pid_reduced_cred_2}', [answer('pid_reduced_cred_1', full), answer('pid_reduced_cred_2', full)]],
    ['{pid, nice_to_have}', [answer('pid', full), answer('nice_to_have', { rewards_number: 1 })]],
  ])('%s satisfies the query', async (_, presentations) => {
    const results = await run(query, presentations);
    expect(errorCodes(results)).toEqual([]);
    expect(at(results, [])?.data).toMatchObject({ satisfied: true, credentialSets: [{ index: 0, required: true }, { index: 1, required: false }] });
  });

  it('{pid_reduced_cred_1} alone does not', async () => {
    const results = await run(query, [answer('pid_reduced_cred_1', full)]);
    expect(at(results, ['pid_reduced_cred_1', 0])?.data).toBeDefined();
    expect(at(results, [])?.error).toMatchObject({ code: 'credential_query.unsatisfied', errors: [{ pointer: '/credential_sets/0' }] });
    expect(at(results, [])?.error?.detail).toMatch(/required credential set 0/);
  });

  it('without credential_sets every credential query needs a valid presentation', async () => {
    const both = { credentials: [cred('a', ['given_name']), cred('b', ['family_name'])] };
    const results = await run(both, [answer('a', full)]);
    expect(at(results, [])?.error?.code).toBe('credential_query.unsatisfied');
    expect(at(results, [])?.error?.detail).toContain('"b"');
  });

  it('re-evaluates on the valid presentations only (§8.6): a failing required one is discarded and the query fails', async () => {
    const results = await run(query, [answer('pid', { given_name: 'E' })]);
    expect(at(results, ['pid', 0])?.error?.code).toBe('credential_query.claims_unsatisfied');
    expect(at(results, [])?.error?.code).toBe('credential_query.unsatisfied');
  });

  it('a failing OPTIONAL presentation is still an error result (→ rejected), while [] records that the rest satisfies the query', async () => {
    const results = await run(query, [answer('pid', full), answer('nice_to_have', { other: 1 })]);
    expect(errorCodes(results)).toEqual(['credential_query.claims_unsatisfied']);
    expect(at(results, ['nice_to_have', 0])?.error).toBeDefined();
    expect(at(results, [])?.data).toMatchObject({ satisfied: true, validQueryIds: ['pid'], discarded: [['nice_to_have', 0]] });
  });
});

/** A root and the issuer leaf it signed, in the shapes the validator sees. */
async function issuerChain(name: string) {
  const root = await createTestCa(`CN=${name} root`);
  const leaf = await root.issue({ subject: `CN=${name} issuer` });
  return { rootPem: root.pem, x5c: [leaf.x5c], leafDer: leaf.der, leafAki: authorityKeyIdentifier(leaf) };
}

describe('localValidator — trusted_authorities (aki) and trusted issuers', () => {
  let ca: Awaited<ReturnType<typeof issuerChain>>;
  let other: Awaited<ReturnType<typeof issuerChain>>;
  beforeAll(async () => {
    ca = await issuerChain('issuer-a');
    other = await issuerChain('issuer-b');
  });

  it('matches an aki value against the SD-JWT x5c chain', async () => {
    const query = (values: string[]) => ({ credentials: [{ ...PID, claims: undefined, trusted_authorities: [{ type: 'aki', values }] }] });
    const good = await run(query([ca.leafAki]), [sdJwt('pid', {}, { x5c: ca.x5c })]);
    expect(errorCodes(good)).toEqual([]);
    const bad = await run(query([other.leafAki]), [sdJwt('pid', {}, { x5c: ca.x5c })]);
    expect(at(bad, ['pid', 0])?.error?.code).toBe('trusted_authorities.no_match');
    const noChain = await run(query([ca.leafAki]), [sdJwt('pid', {})]);
    expect(at(noChain, ['pid', 0])?.error?.code).toBe('trusted_authorities.no_match');
  });

  it('matches an aki value against the mdoc issuerAuth x5chain (label 33)', async () => {
    const query = { credentials: [{ id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: 'org.iso.18013.5.1.mDL' }, trusted_authorities: [{ type: 'aki', values: [ca.leafAki] }] }] };
    expect(errorCodes(await run(query, [mdoc('mdl', {}, { x5chain: [ca.leafDer] })]))).toEqual([]);
    expect(at(await run(query, [mdoc('mdl', {}, { x5chain: [other.leafDer] })]), ['mdl', 0])?.error?.code).toBe('trusted_authorities.no_match');
  });

  it('fails closed with a clear "unsupported" result for etsi_tl / openid_federation', async () => {
    const query = { credentials: [{ ...PID, claims: undefined, trusted_authorities: [{ type: 'etsi_tl', values: ['https://tl.example'] }] }] };
    const results = await run(query, [sdJwt('pid', {}, { x5c: ca.x5c })]);
    expect(at(results, ['pid', 0])?.error?.code).toBe('trusted_authorities.unsupported');
    // An aki entry that matches is enough even next to an unsupported type.
    const mixed = { credentials: [{ ...PID, claims: undefined, trusted_authorities: [{ type: 'etsi_tl', values: ['https://tl.example'] }, { type: 'aki', values: [ca.leafAki] }] }] };
    expect(errorCodes(await run(mixed, [sdJwt('pid', {}, { x5c: ca.x5c })]))).toEqual([]);
    // openid_federation says why: trust chains are not resolved.
    const federation = { credentials: [{ ...PID, claims: undefined, trusted_authorities: [{ type: 'openid_federation', values: ['https://ta.example'] }] }] };
    const refused = at(await run(federation, [sdJwt('pid', {}, { x5c: ca.x5c })]), ['pid', 0])?.error;
    expect(refused?.code).toBe('trusted_authorities.unsupported');
    expect(refused?.detail).toMatch(/openid_federation is not supported: OpenID Federation trust chains are not resolved/);
  });

  it('trustedIssuers: a chain to a configured root passes; others fail and are discarded', async () => {
    const validator = localValidator({ trustedIssuers: [ca.rootPem] });
    const trusted = await run({ credentials: [{ ...PID, claims: undefined }] }, [sdJwt('pid', {}, { x5c: ca.x5c })], undefined, validator);
    expect(errorCodes(trusted)).toEqual([]);
    expect(at(trusted, ['pid', 0], 'trustedIssuer')?.data).toEqual({ trusted: true, matches: [{ credential: 0, rule: 'root', issuer: expect.any(String) }] });

    const untrusted = await run({ credentials: [{ ...PID, claims: undefined }] }, [sdJwt('pid', {}, { x5c: other.x5c })], undefined, validator);
    expect(at(untrusted, ['pid', 0], 'trustedIssuer')?.error?.code).toBe('trusted_issuer.untrusted');
    expect(at(untrusted, [])?.error?.code).toBe('credential_query.unsatisfied');

    const noChain = await run({ credentials: [{ ...PID, claims: undefined }] }, [sdJwt('pid', {})], undefined, validator);
    expect(at(noChain, ['pid', 0], 'trustedIssuer')?.error?.detail).toMatch(/no issuer certificate chain/);

    const mdl = { id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: 'org.iso.18013.5.1.mDL' } };
    expect(errorCodes(await run({ credentials: [mdl] }, [mdoc('mdl', {}, { x5chain: [ca.leafDer] })], undefined, validator))).toEqual([]);
  });

  it('trustedIssuers are fixed at construction: editing the array passed in changes nothing', async () => {
    const roots = [ca.rootPem];
    const validator = localValidator({ trustedIssuers: roots });
    roots[0] = other.rootPem;
    const pid = { credentials: [{ ...PID, claims: undefined }] };
    expect(errorCodes(await run(pid, [sdJwt('pid', {}, { x5c: ca.x5c })], undefined, validator))).toEqual([]);
    const untrusted = await run(pid, [sdJwt('pid', {}, { x5c: other.x5c })], undefined, validator);
    expect(at(untrusted, ['pid', 0], 'trustedIssuer')?.error?.code).toBe('trusted_issuer.untrusted');
  });

  it('trustedIssuers: the clock matters (an expired chain is untrusted)', async () => {
    const validator = localValidator({ trustedIssuers: [ca.rootPem], now: () => new Date(Date.now() + 365 * 86_400_000) });
    const results = await run({ credentials: [{ ...PID, claims: undefined }] }, [sdJwt('pid', {}, { x5c: ca.x5c })], undefined, validator);
    expect(allCodes(at(results, ['pid', 0], 'trustedIssuer'))).toContain('trusted_issuer.untrusted');
  });

  it('rejects invalid trustedIssuers at construction', () => {
    expect(() => localValidator({ trustedIssuers: ['not a pem'] })).toThrow(ConfigError);
    expect(() => localValidator({ trustedIssuers: [] })).toThrow(ConfigError);
  });
});

describe('localValidator — trust before query work, bounded matching, filter patterns in linear time', () => {
  let ca: Awaited<ReturnType<typeof issuerChain>>;
  let other: Awaited<ReturnType<typeof issuerChain>>;
  beforeAll(async () => {
    ca = await issuerChain('issuer-a');
    other = await issuerChain('issuer-b');
  });
  afterEach(() => vi.restoreAllMocks());

  const NESTED_QUANTIFIER = '^(\\w+\\s?)*$';
  const definition = (pattern: string, fields = 1): PresentationDefinition => ({
    id: 'pd',
    input_descriptors: [{ id: 'pid', constraints: { fields: Array.from({ length: fields }, () => ({ path: ['$.given_name'], filter: { type: 'string', pattern } })) } }],
  });
  const runPe = (pd: PresentationDefinition, presentations: ParsedPresentation[], validator = localValidator()) =>
    validator.validate({ authorizationId: 'a1', query: { type: 'DIF.PresentationExchange', presentationDefinition: pd }, presentations }, { signal });
  /** The RegExp objects whose test/exec ran with the relying party's pattern as their source. */
  const backtrackingRunsOf = (pattern: string) => {
    const spies = [vi.spyOn(RegExp.prototype, 'test'), vi.spyOn(RegExp.prototype, 'exec')];
    return () => spies.flatMap((spy) => spy.mock.contexts as RegExp[]).filter((re) => re.source === pattern).length;
  };

  it('a presentation whose issuer is untrusted is discarded before its filters run (Presentation Exchange)', async () => {
    const runs = backtrackingRunsOf(NESTED_QUANTIFIER);
    const validator = localValidator({ trustedIssuers: [ca.rootPem] });
    const results = await runPe(definition(NESTED_QUANTIFIER), [sdJwt('pid', { given_name: `${'a'.repeat(26)}!` }, { x5c: other.x5c })], validator);
    expect(at(results, ['pid', 0], 'trustedIssuer')?.error?.code).toBe('trusted_issuer.untrusted');
    expect(at(results, ['pid', 0])).toBeUndefined(); // not evaluated at all
    expect(at(results, [])?.error?.code).toBe('presentation_exchange.unsatisfied');
    expect(runs()).toBe(0);
    // The same presentation from a trusted issuer is evaluated (and its value fails the pattern).
    const trusted = await runPe(definition(NESTED_QUANTIFIER), [sdJwt('pid', { given_name: `${'a'.repeat(26)}!` }, { x5c: ca.x5c })], validator);
    expect(at(trusted, ['pid', 0])?.error?.code).toBe('presentation_exchange.fields_unsatisfied');
  });

  it('a presentation whose issuer is untrusted is discarded before it is matched (DCQL)', async () => {
    const validator = localValidator({ trustedIssuers: [ca.rootPem] });
    const results = await run({ credentials: [PID] }, [sdJwt('pid', { given_name: 'Erika', family_name: 'Mustermann' }, { x5c: other.x5c })], undefined, validator);
    expect(at(results, ['pid', 0])).toBeUndefined();
    expect(at(results, [])?.error?.code).toBe('credential_query.unsatisfied');
  });

  it('filter patterns never reach the backtracking RegExp engine', async () => {
    const runs = backtrackingRunsOf(NESTED_QUANTIFIER);
    const results = await runPe(definition(NESTED_QUANTIFIER), [sdJwt('pid', { given_name: `${'a'.repeat(4_095)}!` })]);
    expect(at(results, ['pid', 0])?.error?.code).toBe('presentation_exchange.fields_unsatisfied');
    const ok = await runPe(definition(NESTED_QUANTIFIER), [sdJwt('pid', { given_name: 'Erika Mustermann' })]);
    expect(errorCodes(ok)).toEqual([]);
    expect(runs()).toBe(0);
  });

  it('all pattern tests of one response share one budget: past it the presentation is rejected', async () => {
    // 60 fields × a 4,096-character value: more characters × instructions than one response may spend.
    const results = await runPe(definition('^a+$', 60), [sdJwt('pid', { given_name: 'a'.repeat(4_096) })]);
    expect(at(results, ['pid', 0])?.error?.code).toBe('presentation_exchange.match_budget_exceeded');
    expect(at(results, [])?.error?.code).toBe('presentation_exchange.unsatisfied');
    const few = await runPe(definition('^a+$', 3), [sdJwt('pid', { given_name: 'a'.repeat(4_096) })]);
    expect(errorCodes(few)).toEqual([]);
  });

  // A relying party's query times a wallet's values: 2,000 fields or claims over 1,000 disclosed
  // values are two million comparisons (about 0.2 s here), twenty thousand would be seconds.
  const thousandClaims = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`claim_${i}`, `value ${i}`]));

  it('Presentation Exchange: paths and filters of many fields over many values spend the same budget', async () => {
    const pd: PresentationDefinition = { id: 'pd', input_descriptors: [{ id: 'pid', constraints: { fields: Array.from({ length: 2_000 }, () => ({ path: ['$.*'], filter: { const: 'x' } })) } }] };
    const results = await runPe(pd, [sdJwt('pid', thousandClaims)]);
    expect(at(results, ['pid', 0])?.error?.code).toBe('presentation_exchange.match_budget_exceeded');
    const one: PresentationDefinition = { ...pd, input_descriptors: [{ id: 'pid', constraints: { fields: [{ path: ['$.*'], filter: { const: 'value 7' } }] } }] };
    expect(errorCodes(await runPe(one, [sdJwt('pid', thousandClaims)]))).toEqual([]);
  });

  it('DCQL: claims paths and values of many claims over many values spend one budget', async () => {
    const claims = Array.from({ length: 1_000 }, (_, i) => ({ id: `c${i}`, path: ['list', null], values: ['x'] }));
    const list = Array.from({ length: 1_000 }, (_, i) => `v${i}`);
    const results = await run({ credentials: [{ ...PID, claims }] }, [sdJwt('pid', { list })]);
    expect(at(results, ['pid', 0])?.error?.code).toBe('credential_query.match_budget_exceeded');
    expect(at(results, [])?.error?.code).toBe('credential_query.unsatisfied');
    const few = await run({ credentials: [{ ...PID, claims: [{ path: ['list', null], values: ['v7'] }] }] }, [sdJwt('pid', { list })]);
    expect(errorCodes(few)).toEqual([]);
  });
});

describe('localValidator — transaction data coverage', () => {
  const td = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const query = { credentials: [PID, { ...PID, id: 'other' }], credential_sets: [{ options: [['pid'], ['other']] }] };
  const ok = sdJwt('pid', { given_name: 'E', family_name: 'M' });

  it('passes when every entry names a query with a valid presentation', async () => {
    const results = await run(query, [ok], [td({ type: 'payment', credential_ids: ['other', 'pid'] })]);
    expect(at(results, [], 'transactionData')?.data).toEqual({ covered: 1 });
  });

  it('fails for an entry whose queries have no valid presentation, and for undecodable entries', async () => {
    const results = await run(query, [ok], [td({ type: 'payment', credential_ids: ['other'] }), 'not json!']);
    const error = at(results, [], 'transactionData')?.error;
    expect(error?.code).toBe('transaction_data.not_covered');
    expect(error?.errors?.map((e) => e.code)).toEqual(['transaction_data.not_covered', 'transaction_data.invalid']);
  });

  it('does not count a presentation that failed its query', async () => {
    const results = await run(query, [sdJwt('pid', {})], [td({ type: 'payment', credential_ids: ['pid'] })]);
    expect(at(results, [], 'transactionData')?.error?.code).toBe('transaction_data.not_covered');
  });

  it('produces no transactionData result without transaction data', async () => {
    expect(at(await run(query, [ok]), [], 'transactionData')).toBeUndefined();
  });
});
