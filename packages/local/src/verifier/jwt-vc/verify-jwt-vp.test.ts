import { didMethodsConfigSchema, type ParsedJwtVcPresentation, type ParsedJwtVp, type PolicyResult } from '@vp-authorizer/core';
import { decodeJwt, decodeProtectedHeader, importJWK, SignJWT } from 'jose';
import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { didJwk, didKey, type DidKeyPair } from '../__fixtures__/did-keys.js';
import { nowSeconds } from '../__fixtures__/sd-jwt-issuer.js';
import { createTestCa, type TestCa } from '../__fixtures__/test-ca.js';
import { CLIENT_ID, NONCE, signal, verifyInput } from '../__fixtures__/verify-input.js';
import { localVerifier } from '../local-verifier.js';

const errorsOf = (results: PolicyResult[]) => results.filter((r) => r.error).map((r) => `${r.path.slice(2).join('/') || '.'}:${r.policy}:${r.error!.code}`);
const decoded = (jwt: string) => ({ compact: jwt, header: decodeProtectedHeader(jwt) as Record<string, unknown>, payload: decodeJwt(jwt) as Record<string, unknown> });

function vpPresentation(raw: string): ParsedJwtVp {
  return { kind: 'jwt-vp', path: ['vc', 0], queryId: 'vc', index: 0, format: 'jwt_vc_json', raw, jwt: decoded(raw), dataModel: '1.1', presentation: {}, credentials: [] };
}
function vcPresentation(raw: string): ParsedJwtVcPresentation {
  return { kind: 'jwt-vc', path: ['vc', 0], queryId: 'vc', index: 0, format: 'jwt_vc_json', raw, jwt: decoded(raw), dataModel: '1.1', credential: {}, types: [] };
}

let ca: TestCa;
let issuer: DidKeyPair;
let holder: DidKeyPair;
let verifier: ReturnType<typeof localVerifier>;

beforeAll(async () => {
  ca = await createTestCa();
  issuer = await didKey('ed25519');
  holder = await didJwk();
  verifier = localVerifier({ trustAnchors: [ca.pem] });
});

/** VCDM 1.1 JWT VC issued by `issuer` to `holder`. */
const vc11 = (claims: Record<string, unknown> = {}, by = issuer) =>
  by.sign({ iss: by.did, sub: holder.did, nbf: nowSeconds() - 60, exp: nowSeconds() + 3600, vc: { '@context': ['https://www.w3.org/2018/credentials/v1'], type: ['VerifiableCredential', 'UniversityDegree'], credentialSubject: { id: holder.did, degree: 'BSc' } }, ...claims });

const vp11 = (vcs: string[], claims: Record<string, unknown> = {}, by = holder, header: Record<string, unknown> = {}) =>
  by.sign({ iss: by.did, aud: CLIENT_ID, nonce: NONCE, iat: nowSeconds(), vp: { '@context': ['https://www.w3.org/2018/credentials/v1'], type: ['VerifiablePresentation'], verifiableCredential: vcs }, ...claims }, { typ: 'JWT', ...header });

const verify = (p: ParsedJwtVp | ParsedJwtVcPresentation, overrides: Parameters<typeof verifyInput>[1] = {}, client = verifier) => client.verify(verifyInput([p], overrides), { signal: signal() });

describe('localVerifier: JWT VP / VC', () => {
  it('accepts a VCDM 1.1 VP signed by a did:jwk holder with a VC from a did:key (Ed25519) issuer', async () => {
    const results = await verify(vpPresentation(await vp11([await vc11()])));
    expect(errorsOf(results)).toEqual([]);
    expect(results.map((r) => `${r.path.join('/')}:${r.policy}`)).toEqual([
      'vc/0:holderBinding',
      'vc/0/verifiableCredential/0:proof',
      'vc/0/verifiableCredential/0:notBefore',
      'vc/0/verifiableCredential/0:notAfter',
      'vc/0/verifiableCredential/0:status',
    ]);
    expect(results[0]!.data).toMatchObject({ method: 'vp-jwt', holder: holder.did, kid: holder.kid });
    expect(results[1]!.data).toMatchObject({ issuer: issuer.did, dataModel: '1.1', alg: 'EdDSA' });
  });

  it('accepts a did:key (P-256) holder', async () => {
    const p256 = await didKey('p256');
    expect(errorsOf(await verify(vpPresentation(await vp11([await vc11()], {}, p256))))).toEqual([]);
  });

  it('accepts a VCDM 2.0 vp+jwt with an enveloped vc+jwt issued with x5c', async () => {
    const leaf = await ca.issue({ subject: 'CN=VC Issuer' });
    const vc = await new SignJWT({ '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiableCredential'], issuer: 'https://issuer.example', validFrom: new Date(Date.now() - 60_000).toISOString(), validUntil: new Date(Date.now() + 3_600_000).toISOString(), credentialSubject: { id: holder.did } })
      .setProtectedHeader({ alg: 'ES256', typ: 'vc+jwt', x5c: [leaf.x5c] })
      .sign(await importJWK(leaf.privateJwk, 'ES256'));
    const vp = await holder.sign({ '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiablePresentation'], holder: holder.did, aud: CLIENT_ID, nonce: NONCE, verifiableCredential: [{ '@context': ['https://www.w3.org/ns/credentials/v2'], type: 'EnvelopedVerifiableCredential', id: `data:application/vc+jwt,${vc}` }] }, { typ: 'vp+jwt' });
    const results = await verify(vpPresentation(vp));
    expect(errorsOf(results)).toEqual([]);
    expect(results[1]!.data).toMatchObject({ dataModel: '2.0', x5cSubject: 'CN=VC Issuer' });
  });

  it('rejects a wrong nonce and a wrong audience', async () => {
    const vc = await vc11();
    expect(errorsOf(await verify(vpPresentation(await vp11([vc], { nonce: 'other' }))))).toEqual(['.:holderBinding:holder_binding.nonce_mismatch']);
    expect(errorsOf(await verify(vpPresentation(await vp11([vc], { aud: 'x509_hash:other' }))))).toEqual(['.:holderBinding:holder_binding.aud_mismatch']);
  });

  it('rejects a VP signed with a key other than the holder DID key', async () => {
    const impostor = await didJwk();
    const forged = await new SignJWT({ iss: holder.did, aud: CLIENT_ID, nonce: NONCE, vp: { type: ['VerifiablePresentation'], verifiableCredential: [await vc11()] } })
      .setProtectedHeader({ alg: 'ES256', kid: holder.kid })
      .sign(await importJWK(impostor.privateJwk, 'ES256'));
    expect(errorsOf(await verify(vpPresentation(forged)))).toEqual(['.:holderBinding:holder_binding.signature_invalid']);
  });

  it('rejects an embedded VC with a bad issuer signature and an expired VC', async () => {
    const impostor = await didKey('ed25519');
    const forged = await impostor.sign({ iss: issuer.did, vc: { type: ['VerifiableCredential'] } }, { kid: issuer.kid });
    expect(errorsOf(await verify(vpPresentation(await vp11([forged]))))).toEqual(['verifiableCredential/0:proof:proof.signature_invalid']);
    const expired = await vc11({ nbf: nowSeconds() - 7200, exp: nowSeconds() - 3600 });
    expect(errorsOf(await verify(vpPresentation(await vp11([await vc11(), expired]))))).toEqual(['verifiableCredential/1:notAfter:validity.expired']);
  });

  it('reports DID method configuration problems', async () => {
    const didMethods = v.parse(didMethodsConfigSchema, { methods: { jwk: { enabled: false } } });
    expect(errorsOf(await verify(vpPresentation(await vp11([await vc11()])), { didMethods }))).toEqual(['.:holderBinding:did.method_disabled']);
  });

  it('accepts a bare VC only when the query waived holder binding', async () => {
    const p = vcPresentation(await vc11());
    expect(errorsOf(await verify(p))).toEqual(['.:holderBinding:holder_binding.missing']);
    expect(errorsOf(await verify(p, { holderBindingRequired: { vc: false } }))).toEqual([]);
  });

  it('allows only ES256 under HAIP', async () => {
    const results = await verify(vpPresentation(await vp11([await vc11()])), { profile: 'haip' });
    expect(errorsOf(results)).toEqual(['verifiableCredential/0:proof:proof.algorithm_not_allowed']);
  });
});
