import type { ParsedJwtVc, ParsedJwtVcPresentation, ParsedJwtVp, PolicyResult } from '@vp-authorizer/core';
import { didMethodsConfigSchema } from '@vp-authorizer/core/internal';
import { runFormatPolicy } from '@vp-authorizer/core/formats';
import { decodeJwt, decodeProtectedHeader, importJWK, SignJWT } from 'jose';
import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { didJwk, didKey, type DidKeyPair } from '../../__fixtures__/did-keys.js';
import { nowSeconds } from '../../__fixtures__/sd-jwt-issuer.js';
import { createTestCa, type TestCa } from '@vp-authorizer/testing';
import { CLIENT_ID, NONCE, signal, verifyInput } from '../../__fixtures__/verify-input.js';
import { localVerifier } from '../local-verifier.js';

const errorsOf = (results: PolicyResult[]) => results.filter((r) => r.error).map((r) => `${r.path.slice(2).join('/') || '.'}:${r.policy}:${r.error!.code}`);
const decoded = (jwt: string) => ({ compact: jwt, header: decodeProtectedHeader(jwt) as Record<string, unknown>, payload: decodeJwt(jwt) as Record<string, unknown> });

/** What the format policy hands the verifier for `raw` under query `vc` (jwt_vc_json). */
function parsed(raw: string): ParsedJwtVp | ParsedJwtVcPresentation {
  const outcome = runFormatPolicy({ query: { type: 'DCQL', dcql: { credentials: [{ id: 'vc', format: 'jwt_vc_json', meta: { type_values: [['VerifiableCredential']] } }] } }, responseType: 'vp_token', vpToken: { vc: [raw] } });
  if (!outcome.ok) throw new Error(`format policy rejected the token: ${outcome.results.map((r) => r.error?.code).join(', ')}`);
  return outcome.presentations[0] as ParsedJwtVp | ParsedJwtVcPresentation;
}
const vpPresentation = (raw: string) => parsed(raw) as ParsedJwtVp;
const vcPresentation = (raw: string) => parsed(raw) as ParsedJwtVcPresentation;
/** A hand-built parse result, for the verifier's defences against a parse that disagrees with the JWT. */
const parsedVc = (jwt: string, dataModel: '1.1' | '2.0' = '1.1'): ParsedJwtVc => ({ kind: 'jwt-vc', jwt: decoded(jwt), dataModel, credential: {}, types: [] });
const handBuiltVp = (raw: string, credentials: ParsedJwtVc[], dataModel: '1.1' | '2.0' = '1.1'): ParsedJwtVp => ({ kind: 'jwt-vp', path: ['vc', 0], queryId: 'vc', index: 0, format: 'jwt_vc_json', raw, jwt: decoded(raw), dataModel, presentation: {}, credentials });

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
      'vc/0/verifiableCredential/0:holderBinding',
    ]);
    expect(results[0]!.data).toMatchObject({ method: 'vp-jwt', holder: holder.did, kid: holder.kid });
    expect(results[1]!.data).toMatchObject({ issuer: issuer.did, dataModel: '1.1', alg: 'EdDSA' });
  });

  it('accepts a did:key (P-256) holder', async () => {
    const p256 = await didKey('p256');
    const vc = await vc11({ sub: p256.did, vc: { type: ['VerifiableCredential'], credentialSubject: { id: p256.did } } });
    expect(errorsOf(await verify(vpPresentation(await vp11([vc], {}, p256))))).toEqual([]);
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

  it('rejects a VCDM 2.0 vc+jwt whose validFrom lies in the future or whose validUntil lies in the past', async () => {
    const leaf = await ca.issue({ subject: 'CN=VC Issuer' });
    const key = await importJWK(leaf.privateJwk, 'ES256');
    const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
    const HOUR = 3_600_000;
    const vc20 = (validity: Record<string, unknown>, claims: Record<string, unknown> = {}) =>
      new SignJWT({ '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiableCredential'], issuer: 'https://issuer.example', credentialSubject: { id: holder.did }, ...validity, ...claims })
        .setProtectedHeader({ alg: 'ES256', typ: 'vc+jwt', x5c: [leaf.x5c] })
        .sign(key);
    const vp20 = async (vc: string) =>
      vpPresentation(
        await holder.sign({ '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiablePresentation'], holder: holder.did, aud: CLIENT_ID, nonce: NONCE, verifiableCredential: [{ '@context': ['https://www.w3.org/ns/credentials/v2'], type: 'EnvelopedVerifiableCredential', id: `data:application/vc+jwt,${vc}` }] }, { typ: 'vp+jwt' }),
      );
    // Control: a current validity window passes, and the window is reported.
    const current = await verify(await vp20(await vc20({ validFrom: iso(-HOUR), validUntil: iso(HOUR) })));
    expect(errorsOf(current)).toEqual([]);
    expect(current.find((r) => r.policy === 'notBefore')!.data).toHaveProperty('validFrom');
    expect(errorsOf(await verify(await vp20(await vc20({ validFrom: iso(24 * HOUR), validUntil: iso(48 * HOUR) }))))).toEqual(['verifiableCredential/0:notBefore:validity.not_yet_valid']);
    expect(errorsOf(await verify(await vp20(await vc20({ validFrom: iso(-48 * HOUR), validUntil: iso(-24 * HOUR) }))))).toEqual(['verifiableCredential/0:notAfter:validity.expired']);
    // The VCDM dates bind even when the JWT nbf/exp claims say otherwise (the stricter bound wins).
    expect(errorsOf(await verify(await vp20(await vc20({ validFrom: iso(24 * HOUR) }, { nbf: nowSeconds() - 3600 }))))).toEqual(['verifiableCredential/0:notBefore:validity.not_yet_valid']);
    expect(errorsOf(await verify(await vp20(await vc20({ validUntil: iso(-24 * HOUR) }, { exp: nowSeconds() + 3600 }))))).toEqual(['verifiableCredential/0:notAfter:validity.expired']);
    // Within the clock skew (default 5 minutes) is still valid.
    expect(errorsOf(await verify(await vp20(await vc20({ validFrom: iso(60_000), validUntil: iso(-60_000) }))))).toEqual([]);
    // A bare 2.0 VC (binding waived) goes through the same checks.
    expect(errorsOf(await verify(vcPresentation(await vc20({ validUntil: iso(-24 * HOUR) })), { holderBindingRequired: { vc: false } }))).toEqual(['.:notAfter:validity.expired']);
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

  it('rejects a vp+jwt that also has a vp claim instead of verifying the top-level credentials (data-model confusion)', async () => {
    const genuine = await vc11();
    const forgedBody = Buffer.from(JSON.stringify({ iss: issuer.did, sub: holder.did, vc: { type: ['VerifiableCredential', 'UniversityDegree'], credentialSubject: { id: holder.did, degree: 'PhD' } } })).toString('base64url');
    const [h, , sig] = genuine.split('.');
    const forged = `${h}.${forgedBody}.${sig}`;
    const vp = await holder.sign({ iss: holder.did, aud: CLIENT_ID, nonce: NONCE, iat: nowSeconds(), type: ['VerifiablePresentation'], verifiableCredential: [genuine], vp: { type: ['VerifiablePresentation'], verifiableCredential: [forged] } }, { typ: 'vp+jwt' });
    // The format policy rejects it; a parse that picked the vp claim anyway is rejected here too.
    expect(() => parsed(vp)).toThrow(/format\.jwt_malformed/);
    expect(errorsOf(await verify(handBuiltVp(vp, [parsedVc(forged)], '1.1')))).toEqual(['.:format:proof.typ_invalid']);
    // Without the ambiguous typ, the credentials the format policy parsed (vp claim) are the ones verified.
    const vp11 = await holder.sign({ iss: holder.did, aud: CLIENT_ID, nonce: NONCE, iat: nowSeconds(), verifiableCredential: [genuine], vp: { type: ['VerifiablePresentation'], verifiableCredential: [forged] } }, { typ: 'JWT' });
    expect(errorsOf(await verify(vpPresentation(vp11)))).toEqual(['verifiableCredential/0:proof:proof.signature_invalid']);
  });

  it('rejects a parse whose credentials or data model differ from the signed VP', async () => {
    const vp = await vp11([await vc11()]);
    expect(errorsOf(await verify(handBuiltVp(vp, [parsedVc(await vc11({ vc: { type: ['VerifiableCredential'], credentialSubject: { id: holder.did, degree: 'PhD' } } }))])))).toEqual(['.:format:format.malformed']);
    expect(errorsOf(await verify(handBuiltVp(vp, [])))).toEqual(['.:format:format.malformed']);
    expect(errorsOf(await verify(handBuiltVp(vp, vpPresentation(vp).credentials, '2.0')))).toEqual(['.:format:format.malformed']);
  });

  it('rejects an embedded vc+jwt that also has a vc claim, and a credential parsed in another data model', async () => {
    const ambiguous = await issuer.sign({ iss: issuer.did, sub: holder.did, type: ['VerifiableCredential'], credentialSubject: { id: holder.did }, vc: { type: ['VerifiableCredential'], credentialSubject: { id: holder.did } } }, { typ: 'vc+jwt' });
    const vp = await vp11([ambiguous]);
    expect(errorsOf(await verify(handBuiltVp(vp, [parsedVc(ambiguous, '2.0')])))).toEqual(['verifiableCredential/0:proof:proof.typ_invalid']);
    const plain = await vc11();
    const vpPlain = await vp11([plain]);
    expect(errorsOf(await verify(handBuiltVp(vpPlain, [parsedVc(plain, '2.0')])))).toEqual(['verifiableCredential/0:proof:format.malformed']);
  });

  it('rejects a stolen VC of another subject wrapped in the attacker VP (holder_binding.subject_mismatch)', async () => {
    const victim = await didJwk();
    const attacker = await didJwk();
    const victimVc = await vc11({ sub: victim.did, vc: { type: ['VerifiableCredential', 'UniversityDegree'], credentialSubject: { id: victim.did, degree: 'PhD' } } });
    const vp = vpPresentation(await vp11([victimVc], {}, attacker));
    expect(errorsOf(await verify(vp))).toEqual(['verifiableCredential/0:holderBinding:holder_binding.subject_mismatch']);
    // Only the sub, or only a credentialSubject.id, of someone else is enough to fail.
    const subOnly = await vc11({ sub: victim.did, vc: { type: ['VerifiableCredential'], credentialSubject: { degree: 'PhD' } } });
    expect(errorsOf(await verify(vpPresentation(await vp11([subOnly], {}, attacker))))).toEqual(['verifiableCredential/0:holderBinding:holder_binding.subject_mismatch']);
    const mixed = await vc11({ sub: attacker.did, vc: { type: ['VerifiableCredential'], credentialSubject: [{ id: attacker.did }, { id: victim.did }] } });
    expect(errorsOf(await verify(vpPresentation(await vp11([mixed], {}, attacker))))).toEqual(['verifiableCredential/0:holderBinding:holder_binding.subject_mismatch']);
    // A waived binding accepts a credential of another subject.
    expect(errorsOf(await verify(vp, { holderBindingRequired: { vc: false } }))).toEqual([]);
  });

  it('rejects a bearer VC (no subject) in a VP when binding is required; accepts a cnf key bound to the VP signer', async () => {
    const bearer = await vc11({ sub: undefined, vc: { type: ['VerifiableCredential'], credentialSubject: { degree: 'BSc' } } });
    expect(errorsOf(await verify(vpPresentation(await vp11([bearer]))))).toEqual(['verifiableCredential/0:holderBinding:holder_binding.subject_mismatch']);
    const cnfBound = await vc11({ sub: undefined, cnf: { jwk: holder.publicJwk }, vc: { type: ['VerifiableCredential'], credentialSubject: { degree: 'BSc' } } });
    const results = await verify(vpPresentation(await vp11([cnfBound])));
    expect(errorsOf(results)).toEqual([]);
    expect(results.at(-1)!.data).toMatchObject({ method: 'cnf' });
    const otherKey = await didJwk();
    const cnfOther = await vc11({ cnf: { jwk: otherKey.publicJwk } });
    expect(errorsOf(await verify(vpPresentation(await vp11([cnfOther]))))).toEqual(['verifiableCredential/0:holderBinding:holder_binding.subject_mismatch']);
  });

  it('rejects a VC whose iss differs from vc.issuer (a trusted name on an attacker signature)', async () => {
    const attacker = await didJwk();
    const vc = await attacker.sign({ iss: attacker.did, sub: holder.did, vc: { issuer: 'did:web:university.example', type: ['VerifiableCredential', 'UniversityDegree'], credentialSubject: { id: holder.did, degree: 'PhD' } } });
    expect(errorsOf(await verify(vpPresentation(await vp11([vc]))))).toEqual(['verifiableCredential/0:proof:proof.issuer_mismatch']);
    const sameIssuer = await attacker.sign({ iss: attacker.did, sub: holder.did, vc: { issuer: { id: attacker.did }, type: ['VerifiableCredential'], credentialSubject: { id: holder.did } } });
    expect(errorsOf(await verify(vpPresentation(await vp11([sameIssuer]))))).toEqual([]);
  });

  it('rejects a VC signed with a DID kid whose issuer is not that DID', async () => {
    const signer = await didJwk();
    const noDidIssuer = await signer.sign({ sub: holder.did, vc: { issuer: 'https://university.example', type: ['VerifiableCredential'], credentialSubject: { id: holder.did } } });
    expect(errorsOf(await verify(vpPresentation(await vp11([noDidIssuer]))))).toEqual(['verifiableCredential/0:proof:proof.issuer_mismatch']);
    const v2 = await signer.sign({ '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiableCredential'], issuer: 'https://university.example', credentialSubject: { id: holder.did } }, { typ: 'vc+jwt' });
    expect(errorsOf(await verify(vcPresentation(v2), { holderBindingRequired: { vc: false } }))).toEqual(['.:proof:proof.issuer_mismatch']);
  });

  it('verifies a VP signed by a did:web holder, resolving the DID document through the injected fetch; rejects a VP signed with another key', async () => {
    const did = 'did:web:wallet.example:holders:alice';
    const kid = `${did}#key-1`;
    const holderKeys = await didJwk();
    const impostorKeys = await didJwk();
    const document = {
      '@context': ['https://www.w3.org/ns/did/v1'],
      id: did,
      verificationMethod: [{ id: '#key-1', type: 'JsonWebKey2020', controller: did, publicKeyJwk: holderKeys.publicJwk }],
      authentication: ['#key-1'],
    };
    const requested: string[] = [];
    const fetchDid: typeof fetch = async (url) => {
      requested.push(String(url));
      return String(url) === 'https://wallet.example/holders/alice/did.json' ? new Response(JSON.stringify(document), { headers: { 'content-type': 'application/did+json' } }) : new Response('not found', { status: 404 });
    };
    const webVerifier = localVerifier({ trustAnchors: [ca.pem], fetch: fetchDid });
    const vc = await vc11({ sub: did, vc: { type: ['VerifiableCredential', 'UniversityDegree'], credentialSubject: { id: did, degree: 'BSc' } } });
    const vpBy = async (keys: DidKeyPair) =>
      vpPresentation(
        await new SignJWT({ iss: did, aud: CLIENT_ID, nonce: NONCE, iat: nowSeconds(), vp: { type: ['VerifiablePresentation'], holder: did, verifiableCredential: [vc] } })
          .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid })
          .sign(await importJWK(keys.privateJwk, 'ES256')),
      );

    const results = await verify(await vpBy(holderKeys), {}, webVerifier);
    expect(errorsOf(results)).toEqual([]);
    expect(results[0]!.data).toMatchObject({ method: 'vp-jwt', holder: did, kid });
    expect(results.at(-1)).toMatchObject({ policy: 'holderBinding', path: ['vc', 0, 'verifiableCredential', 0] });
    expect(requested).toEqual(['https://wallet.example/holders/alice/did.json']);

    expect(errorsOf(await verify(await vpBy(impostorKeys), {}, webVerifier))).toEqual(['.:holderBinding:holder_binding.signature_invalid']);
    // The document was fetched, not guessed: a did:web the fetch cannot resolve fails resolution.
    const unresolvable = localVerifier({ trustAnchors: [ca.pem], fetch: async () => new Response('not found', { status: 404 }) });
    expect(errorsOf(await verify(await vpBy(holderKeys), {}, unresolvable))).toEqual(['.:holderBinding:did.resolution_failed']);
    // A document served for the URL but naming another DID is not this DID's document.
    const foreign = localVerifier({ trustAnchors: [ca.pem], fetch: async () => new Response(JSON.stringify({ ...document, id: 'did:web:attacker.example' })) });
    expect(errorsOf(await verify(await vpBy(holderKeys), {}, foreign))).toEqual(['.:holderBinding:did.resolution_failed']);
  });

  it('allows only ES256 under HAIP', async () => {
    const results = await verify(vpPresentation(await vp11([await vc11()])), { profile: 'haip' });
    expect(errorsOf(results)).toEqual(['verifiableCredential/0:proof:proof.algorithm_not_allowed']);
  });
});
