import type { ParsedLdp, PolicyResult } from '@vp-authorizer/core';
import { ConfigError } from '@vp-authorizer/core';
import { runFormatPolicy } from '@vp-authorizer/core/formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDidJwk, createDidKey, issueCredential, issuerDocumentLoader, signPresentation, unsignedCredential, type DidKeyHolder, type KeyKind, type SigningSuite } from '../../__fixtures__/data-integrity-issuer.js';
import { CLIENT_ID, NONCE, signal, verifyInput } from '../../__fixtures__/verify-input.js';
import { localVerifier } from '../local-verifier.js';

const errorsOf = (results: PolicyResult[]) => results.filter((r) => r.error).map((r) => `${r.path.slice(2).join('/') || '.'}:${r.policy}:${r.error!.code}`);

/** What core's format policy hands the verifier for an `ldp_vc` answer. */
function parsed(raw: Record<string, unknown>): ParsedLdp {
  const outcome = runFormatPolicy({ query: { type: 'DCQL', dcql: { credentials: [{ id: 'vc', format: 'ldp_vc' }] } }, responseType: 'vp_token', vpToken: { vc: [raw] } });
  if (!outcome.ok) throw new Error(`format policy rejected the token: ${outcome.results.map((r) => r.error?.code).join(', ')}`);
  return outcome.presentations[0] as ParsedLdp;
}

const verifier = localVerifier({ trustAnchors: [] });
const verify = (raw: Record<string, unknown>, overrides: Parameters<typeof verifyInput>[1] = {}, client = verifier) => client.verify(verifyInput([parsed(raw)], overrides), { signal: signal() });

let holder: DidKeyHolder;
const issuers = new Map<KeyKind, DidKeyHolder>();
const issuerFor = (kind: KeyKind) => issuers.get(kind)!;

beforeAll(async () => {
  holder = await createDidKey('Ed25519');
  for (const kind of ['Ed25519', 'P-256', 'P-384', 'BLS12-381'] as const) issuers.set(kind, await createDidKey(kind));
});

const credentialFor = (issuer: DidKeyHolder, extra: Record<string, unknown> = {}) => unsignedCredential(issuer.did, { id: holder.did, degree: { type: 'ExampleBachelorDegree', name: 'Bachelor of Science and Arts' } }, extra);
const present = (credentials: Record<string, unknown>[], options: Partial<Parameters<typeof signPresentation>[2]> = {}, by = holder) => signPresentation(credentials, by, { challenge: NONCE, domain: CLIENT_ID, ...options });

const SUITES: [SigningSuite, KeyKind][] = [
  ['eddsa-rdfc-2022', 'Ed25519'],
  ['ecdsa-rdfc-2019', 'P-256'],
  ['ecdsa-rdfc-2019', 'P-384'],
  ['eddsa-jcs-2022', 'Ed25519'],
  ['ecdsa-jcs-2019', 'P-256'],
  ['ecdsa-jcs-2019', 'P-384'],
  ['ecdsa-sd-2023', 'P-256'],
  ['bbs-2023', 'BLS12-381'],
];

describe('localVerifier: Data Integrity presentations (ldp_vp) with credentials issued by @digitalbazaar/vc', () => {
  it.each(SUITES)('a presentation of a %s credential (%s issuer key) verifies: holder proof, proof, validity, status, binding', async (suite, kind) => {
    const vc = await issueCredential(credentialFor(issuerFor(kind)), issuerFor(kind), suite);
    const results = await verify(await present([vc]));
    expect(errorsOf(results)).toEqual([]);
    expect(results.map((r) => `${r.path.slice(2).join('/') || '.'}:${r.policy}`)).toEqual([
      '.:holderBinding',
      'verifiableCredential/0:proof',
      'verifiableCredential/0:notBefore',
      'verifiableCredential/0:notAfter',
      'verifiableCredential/0:status',
      'verifiableCredential/0:holderBinding',
    ]);
    expect(results[0]!.data).toMatchObject({ method: 'data-integrity', holder: holder.did });
    expect(results[1]!.data).toMatchObject({ issuer: issuerFor(kind).did, cryptosuite: suite, dataModel: '2.0' });
  });

  it.each(SUITES)('a %s credential (%s) changed after issuance fails as proof.signature_invalid, the holder proof still verifying', async (suite, kind) => {
    const vc = await issueCredential(credentialFor(issuerFor(kind)), issuerFor(kind), suite);
    (vc.credentialSubject as Record<string, unknown>).degree = { type: 'ExampleBachelorDegree', name: 'Doctor of Medicine' };
    expect(errorsOf(await verify(await present([vc])))).toEqual(['verifiableCredential/0:proof:proof.signature_invalid']);
  });

  it('a presentation with a VCDM 1.1 credential verifies', async () => {
    const issuer = issuerFor('Ed25519');
    const vc = await issueCredential(
      { '@context': ['https://www.w3.org/2018/credentials/v1', 'https://w3id.org/security/data-integrity/v2'], type: ['VerifiableCredential'], issuer: issuer.did, issuanceDate: '2024-01-01T00:00:00Z', credentialSubject: { id: holder.did } },
      issuer,
      'eddsa-rdfc-2022',
    );
    const results = await verify(await present([vc]));
    expect(errorsOf(results)).toEqual([]);
    expect(results[1]!.data).toMatchObject({ dataModel: '1.1' });
  });

  it('holder and issuer as did:jwk verify through the same DID resolution', async () => {
    const issuer = await createDidJwk('P-256');
    const jwkHolder = await createDidJwk('Ed25519');
    const vc = await issueCredential(unsignedCredential(issuer.did, { id: jwkHolder.did }), issuer, 'ecdsa-rdfc-2019');
    expect(errorsOf(await verify(await present([vc], {}, jwkHolder)))).toEqual([]);
  });

  describe('holder binding', () => {
    let vc: Record<string, unknown>;
    beforeAll(async () => {
      vc = await issueCredential(credentialFor(issuerFor('Ed25519')), issuerFor('Ed25519'), 'eddsa-rdfc-2022');
    });

    it('a challenge other than the request nonce fails as holder_binding.nonce_mismatch', async () => {
      expect(errorsOf(await verify(await present([vc], { challenge: 'another-nonce' })))).toEqual(['.:holderBinding:holder_binding.nonce_mismatch']);
    });

    it('a domain other than the client id fails as holder_binding.aud_mismatch', async () => {
      expect(errorsOf(await verify(await present([vc], { domain: 'x509_hash:another-verifier' })))).toEqual(['.:holderBinding:holder_binding.aud_mismatch']);
    });

    it('over the DC API the domain is origin:<origin>', async () => {
      const audience = 'origin:https://rp.example';
      expect(errorsOf(await verify(await present([vc], { domain: audience }), { audience }))).toEqual([]);
      expect(errorsOf(await verify(await present([vc]), { audience }))).toEqual(['.:holderBinding:holder_binding.aud_mismatch']);
    });

    it('a presentation changed after the holder signed it fails as holder_binding.signature_invalid', async () => {
      const vp = await present([vc]);
      vp.id = 'urn:uuid:added-later';
      expect(errorsOf(await verify(vp))).toEqual(['.:holderBinding:holder_binding.signature_invalid']);
    });

    it('a holder member naming another DID than the signer fails as vp.holder_mismatch', async () => {
      expect(errorsOf(await verify(await present([vc], { holderMember: issuerFor('P-256').did })))).toEqual(['.:holderBinding:vp.holder_mismatch']);
    });

    it('a credential about another subject fails as holder_binding.subject_mismatch unless the query waived binding', async () => {
      const other = await issueCredential(unsignedCredential(issuerFor('Ed25519').did, { id: 'did:example:someone-else' }), issuerFor('Ed25519'), 'eddsa-rdfc-2022');
      expect(errorsOf(await verify(await present([other])))).toEqual(['verifiableCredential/0:holderBinding:holder_binding.subject_mismatch']);
      expect(errorsOf(await verify(await present([other]), { holderBindingRequired: { vc: false } }))).toEqual([]);
    });

    it('a bare credential fails as holder_binding.missing where binding is required, and verifies where the query waived it', async () => {
      expect(errorsOf(await verify(vc))).toEqual(['.:holderBinding:holder_binding.missing']);
      expect(errorsOf(await verify(vc, { holderBindingRequired: { vc: false } }))).toEqual([]);
    });

    it('a credential signed by the holder as its own issuer under another name fails as proof.issuer_mismatch', async () => {
      const forged = await issueCredential(credentialFor(issuerFor('P-256')), issuerFor('Ed25519'), 'eddsa-rdfc-2022');
      expect(errorsOf(await verify(await present([forged])))).toEqual(['verifiableCredential/0:proof:proof.issuer_mismatch']);
    });
  });

  describe('credential checks', () => {
    it('validUntil in the past fails as validity.expired; validFrom in the future as validity.not_yet_valid', async () => {
      const issuer = issuerFor('P-256');
      const expired = await issueCredential(credentialFor(issuer, { validUntil: '2024-06-01T00:00:00Z' }), issuer, 'ecdsa-rdfc-2019');
      const future = await issueCredential(credentialFor(issuer, { validFrom: '2999-01-01T00:00:00Z' }), issuer, 'ecdsa-rdfc-2019');
      expect(errorsOf(await verify(await present([expired, future])))).toEqual(['verifiableCredential/0:notAfter:validity.expired', 'verifiableCredential/1:notBefore:validity.not_yet_valid']);
    });

    it('a key algorithm outside allowedAlgs fails as proof.algorithm_not_allowed', async () => {
      const issuer = issuerFor('P-384');
      const vc = await issueCredential(credentialFor(issuer), issuer, 'ecdsa-rdfc-2019');
      const strict = localVerifier({ trustAnchors: [], allowedAlgs: ['ES256', 'EdDSA'] });
      expect(errorsOf(await verify(await present([vc]), {}, strict))).toEqual(['verifiableCredential/0:proof:proof.algorithm_not_allowed']);
    });

    it('a suite the operator left out of dataIntegrity.cryptosuites is refused as data_integrity.cryptosuite_unsupported', async () => {
      const issuer = issuerFor('BLS12-381');
      const vc = await issueCredential(credentialFor(issuer), issuer, 'bbs-2023');
      const noBbs = localVerifier({ trustAnchors: [], dataIntegrity: { cryptosuites: ['eddsa-rdfc-2022', 'ecdsa-rdfc-2019', 'ecdsa-sd-2023'] } });
      expect(errorsOf(await verify(await present([vc]), {}, noBbs))).toEqual(['verifiableCredential/0:proof:data_integrity.cryptosuite_unsupported']);
    });

    it('with dataIntegrity.enabled false, a Data Integrity presentation is not verified: format.unsupported', async () => {
      const vc = await issueCredential(credentialFor(issuerFor('Ed25519')), issuerFor('Ed25519'), 'eddsa-rdfc-2022');
      const disabled = localVerifier({ trustAnchors: [], dataIntegrity: { enabled: false } });
      expect(errorsOf(await verify(await present([vc]), {}, disabled))).toEqual(['.:format:format.unsupported']);
    });

    it('a proof type other than DataIntegrityProof is refused as data_integrity.cryptosuite_unsupported', async () => {
      const vc = await issueCredential(credentialFor(issuerFor('Ed25519')), issuerFor('Ed25519'), 'eddsa-rdfc-2022');
      vc.proof = { ...(vc.proof as Record<string, unknown>), type: 'Ed25519Signature2020' };
      expect(errorsOf(await verify(await present([vc])))).toEqual(['verifiableCredential/0:proof:data_integrity.cryptosuite_unsupported']);
    });

    it('a credential with a term its contexts do not define fails as data_integrity.document_invalid', async () => {
      const issuer = issuerFor('Ed25519');
      const vc = await issueCredential(
        { '@context': ['https://www.w3.org/2018/credentials/v1', 'https://w3id.org/security/data-integrity/v2'], type: ['VerifiableCredential'], issuer: issuer.did, issuanceDate: '2024-01-01T00:00:00Z', credentialSubject: { id: holder.did } },
        issuer,
        'eddsa-rdfc-2022',
      );
      (vc.credentialSubject as Record<string, unknown>).undefinedTerm = 'dropped by JSON-LD, so unsigned';
      // Presented bare: the holder's library refuses to sign a presentation of it.
      expect(errorsOf(await verify(vc, { holderBindingRequired: { vc: false } }))).toEqual(['.:proof:data_integrity.document_invalid']);
    });

    it('a credential with a credentialStatus fails closed as status.unsupported', async () => {
      const issuer = issuerFor('Ed25519');
      const vc = await issueCredential(credentialFor(issuer, { credentialStatus: { type: 'ExampleStatus', id: 'urn:uuid:s' } }), issuer, 'eddsa-rdfc-2022');
      expect(errorsOf(await verify(await present([vc])))).toEqual(['verifiableCredential/0:status:status.unsupported']);
    });
  });

  describe('contexts', () => {
    const CUSTOM = 'https://vocab.example/degree/v1';
    const customContext = { '@context': { '@protected': true, DegreeVoucher: 'https://vocab.example/degree#DegreeVoucher', grade: 'https://vocab.example/degree#grade' } };
    let vc: Record<string, unknown>;
    beforeAll(async () => {
      const issuer = issuerFor('Ed25519');
      const loader = issuerDocumentLoader({ [CUSTOM]: customContext });
      vc = await issueCredential(unsignedCredential(issuer.did, { id: holder.did, grade: 'A' }, { '@context': ['https://www.w3.org/ns/credentials/v2', CUSTOM], type: ['VerifiableCredential', 'DegreeVoucher'] }), issuer, 'eddsa-rdfc-2022', { loader });
      vc = { ...vc };
    });

    it('a context the verifier does not have is refused as data_integrity.context_unknown', async () => {
      expect(errorsOf(await verify(await present([vc], { loader: issuerDocumentLoader({ [CUSTOM]: customContext }) })))).toEqual(['.:format:data_integrity.context_unknown']);
    });

    it('the same credential verifies once the operator adds the context', async () => {
      const withContext = localVerifier({ trustAnchors: [], dataIntegrity: { contexts: { [CUSTOM]: customContext } } });
      expect(errorsOf(await verify(await present([vc], { loader: issuerDocumentLoader({ [CUSTOM]: customContext }) }), {}, withContext))).toEqual([]);
    });

    it('a bundled context cannot be replaced, and a context must be a JSON-LD context document', () => {
      expect(() => localVerifier({ trustAnchors: [], dataIntegrity: { contexts: { 'https://www.w3.org/ns/credentials/v2': { '@context': {} } } } })).toThrow(ConfigError);
      expect(() => localVerifier({ trustAnchors: [], dataIntegrity: { contexts: { [CUSTOM]: { grade: 'x' } } } })).toThrow(/@context/);
      expect(() => localVerifier({ trustAnchors: [], dataIntegrity: { contexts: { 'not a url': { '@context': {} } } } })).toThrow(/absolute URL/);
    });
  });
});
