import { beforeAll, describe, expect, it } from 'vitest';
import { parseJwtVcOrVp } from './parse-jwt-vc.js';
import { es256Key, signJwt, type TestKey, failure } from '../shared/test-fixtures.js';

const ref = { path: ['degree', 0], queryId: 'degree', index: 0, format: 'jwt_vc_json' };
let issuer: TestKey;
let holder: TestKey;

const vc11 = { '@context': ['https://www.w3.org/2018/credentials/v1'], type: ['VerifiableCredential', 'UniversityDegreeCredential'], credentialSubject: { id: 'did:example:1', degree: 'BSc' } };
const vc20 = { '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiableCredential', 'EmployeeCredential'], issuer: 'did:example:issuer', credentialSubject: { name: 'Ada' } };

describe('parseJwtVcOrVp', () => {
  beforeAll(async () => {
    issuer = await es256Key();
    holder = await es256Key();
  });

  it('decodes a VCDM 1.1 VP with an embedded JWT VC', async () => {
    const vcJwt = await signJwt(issuer, { iss: 'did:example:issuer', sub: 'did:example:1', vc: vc11 });
    const vpJwt = await signJwt(holder, { iss: 'did:example:1', nonce: 'n', aud: 'x509_hash:a', vp: { type: ['VerifiablePresentation'], verifiableCredential: [vcJwt] } });
    const parsed = parseJwtVcOrVp(vpJwt, ref);
    expect(parsed.kind).toBe('jwt-vp');
    if (parsed.kind !== 'jwt-vp') return;
    expect(parsed).toMatchObject({ raw: vpJwt, dataModel: '1.1', path: ['degree', 0] });
    expect(parsed.jwt.payload.nonce).toBe('n');
    expect(parsed.credentials).toHaveLength(1);
    expect(parsed.credentials[0]).toMatchObject({ kind: 'jwt-vc', dataModel: '1.1', credential: vc11, types: vc11.type });
    expect(parsed.credentials[0]?.jwt.compact).toBe(vcJwt);
  });

  it('decodes a VCDM 2.0 VP (typ vp+jwt) with an enveloped VC', async () => {
    const vcJwt = await signJwt(issuer, vc20, { typ: 'vc+jwt' });
    const vp = { '@context': ['https://www.w3.org/ns/credentials/v2'], type: 'VerifiablePresentation', verifiableCredential: [{ '@context': ['https://www.w3.org/ns/credentials/v2'], type: 'EnvelopedVerifiableCredential', id: `data:application/vc+jwt,${vcJwt}` }] };
    const parsed = parseJwtVcOrVp(await signJwt(holder, vp, { typ: 'vp+jwt' }), ref);
    expect(parsed.kind).toBe('jwt-vp');
    if (parsed.kind !== 'jwt-vp') return;
    expect(parsed.dataModel).toBe('2.0');
    expect(parsed.presentation.type).toBe('VerifiablePresentation');
    expect(parsed.credentials[0]).toMatchObject({ dataModel: '2.0', types: vc20.type });
    expect(parsed.credentials[0]?.credential.credentialSubject).toEqual({ name: 'Ada' });
  });

  it('decodes a plain VC in 1.1 (vc claim) and 2.0 (typ vc+jwt) form', async () => {
    const a = parseJwtVcOrVp(await signJwt(issuer, { vc: vc11 }), ref);
    expect(a).toMatchObject({ kind: 'jwt-vc', dataModel: '1.1', credential: vc11 });
    const b = parseJwtVcOrVp(await signJwt(issuer, { ...vc20, type: 'VerifiableCredential' }, { typ: 'vc+jwt' }), ref);
    expect(b).toMatchObject({ kind: 'jwt-vc', dataModel: '2.0', types: ['VerifiableCredential'] });
  });

  it('requires a VP when asked (PE jwt_vp_json)', async () => {
    const vcJwt = await signJwt(issuer, { vc: vc11 });
    expect(failure(() => parseJwtVcOrVp(vcJwt, ref, { requireVp: true })).code).toBe('format.jwt_malformed');
  });

  it.each([
    ['a JWT that is neither VC nor VP', { sub: 'x' }],
    ['a VP without credentials', { vp: { type: ['VerifiablePresentation'] } }],
    ['a VP with an embedded non-JWT credential', { vp: { type: ['VerifiablePresentation'], verifiableCredential: [{ type: ['VerifiableCredential'] }] } }],
    ['a VP with an embedded garbage JWT', { vp: { type: ['VerifiablePresentation'], verifiableCredential: ['a.b.c'] } }],
  ])('rejects %s', async (_label, payload) => {
    const error = failure(() => parseJwtVcOrVp(undefined, ref));
    expect(error.code).toBe('format.jwt_malformed');
    const jwt = await signJwt(holder, payload as Record<string, unknown>);
    const e2 = failure(() => parseJwtVcOrVp(jwt, ref));
    expect(e2.code).toBe('format.jwt_malformed');
    expect(e2.path).toEqual(['degree', 0]);
  });

  it('rejects a vp+jwt that also has a vp claim (two credential lists, one JWT)', async () => {
    const genuine = await signJwt(issuer, { vc: vc11 });
    const other = await signJwt(issuer, { vc: { ...vc11, credentialSubject: { id: 'did:example:1', degree: 'PhD' } } });
    const vp = await signJwt(holder, { type: ['VerifiablePresentation'], verifiableCredential: [genuine], vp: { type: ['VerifiablePresentation'], verifiableCredential: [other] } }, { typ: 'vp+jwt' });
    expect(failure(() => parseJwtVcOrVp(vp, ref)).code).toBe('format.jwt_malformed');
  });

  it('rejects a vc+jwt that also has a vc claim, as a plain VC and inside a VP', async () => {
    const ambiguous = await signJwt(issuer, { ...vc20, vc: vc11 }, { typ: 'vc+jwt' });
    expect(failure(() => parseJwtVcOrVp(ambiguous, ref)).code).toBe('format.jwt_malformed');
    const vp = await signJwt(holder, { vp: { type: ['VerifiablePresentation'], verifiableCredential: [ambiguous] } });
    expect(failure(() => parseJwtVcOrVp(vp, ref)).code).toBe('format.jwt_malformed');
  });

  it.each([42, '', 'one.two', 'a.b.c.d', `${Buffer.from('{}').toString('base64url')}.${Buffer.from('{}').toString('base64url')}.`])('rejects non-JWT input %j', (input) => {
    expect(failure(() => parseJwtVcOrVp(input, ref)).code).toBe('format.jwt_malformed');
  });
});
