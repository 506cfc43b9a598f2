import { ConfigError, type DcqlQuery, type ParsedPresentation, type PolicyResult } from '@vp-authorizer/core';
import { createTestCa, type TestCa } from '@vp-authorizer/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IssuerAnchorSource } from '../../x509/issuer-anchors.js';
import { jwtVc, ldp, sdJwt } from '../__fixtures__/presentations.js';
import { localValidator } from '../index.js';

const signal = new AbortController().signal;
const ISSUER_KEY = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const OTHER_KEY = 'did:key:z6MkjchhfUsD6mmvni8mCdXHw216Xrm9bQe2mBH1P5RDjVJG';
const WEB = 'did:web:issuer.example';

const QUERY: DcqlQuery = { credentials: [{ id: 'c', format: 'dc+sd-jwt', require_cryptographic_holder_binding: false }] };
const JWT_QUERY: DcqlQuery = { credentials: [{ id: 'c', format: 'jwt_vc_json', require_cryptographic_holder_binding: false }] };
const LDP_QUERY: DcqlQuery = { credentials: [{ id: 'c', format: 'ldp_vc', require_cryptographic_holder_binding: false }] };
const trustOf = async (trustedIssuers: string[] | undefined, query: DcqlQuery, presentation: ParsedPresentation, issuerAnchors?: IssuerAnchorSource): Promise<PolicyResult | undefined> => {
  const validator = localValidator({ ...(trustedIssuers ? { trustedIssuers } : {}), ...(issuerAnchors ? { issuerAnchors } : {}) });
  const results = await validator.validate({ authorizationId: 'a', query: { type: 'DCQL', dcql: query }, presentations: [presentation] }, { signal });
  return results.find((r) => r.policy === 'trustedIssuer');
};
const vc = (issuer: unknown) => ({ '@context': ['https://www.w3.org/2018/credentials/v1'], type: ['VerifiableCredential'], issuer, credentialSubject: {} });

let ca: { rootPem: string; x5c: string[] };
beforeAll(async () => {
  const root: TestCa = await createTestCa('CN=did test root');
  const leaf = await root.issue({ subject: 'CN=did test issuer' });
  ca = { rootPem: root.pem, x5c: [leaf.x5c] };
});

describe('trusted issuers given as DIDs, did:web domains and certificate roots in one list', () => {
  it('an SD-JWT VC whose iss is a trusted DID passes, naming the DID rule', async () => {
    const result = await trustOf([ca.rootPem, ISSUER_KEY], QUERY, sdJwt('c', {}, { iss: ISSUER_KEY, kid: `${ISSUER_KEY}#${ISSUER_KEY.slice(8)}`, kb: false }));
    expect(result?.error).toBeUndefined();
    expect(result?.data).toEqual({ trusted: true, matches: [{ credential: 0, rule: 'did', issuer: ISSUER_KEY, entry: ISSUER_KEY }] });
  });

  it('a JWT VC: iss, or the W3C issuer when there is no iss; an issuer DID not listed fails', async () => {
    expect((await trustOf([ISSUER_KEY], JWT_QUERY, jwtVc('c', vc(ISSUER_KEY), { iss: ISSUER_KEY })))?.error).toBeUndefined();
    expect((await trustOf([ISSUER_KEY], JWT_QUERY, jwtVc('c', vc({ id: ISSUER_KEY, name: 'U' }))))?.error).toBeUndefined();
    const untrusted = await trustOf([ISSUER_KEY], JWT_QUERY, jwtVc('c', vc(OTHER_KEY), { iss: OTHER_KEY }));
    expect(untrusted?.error).toMatchObject({ code: 'trusted_issuer.untrusted', detail: expect.stringContaining('is not a trusted issuer DID') });
  });

  it('a key from another DID document is refused even when the issuer DID is trusted', async () => {
    const result = await trustOf([ISSUER_KEY], QUERY, sdJwt('c', {}, { iss: ISSUER_KEY, kid: `${OTHER_KEY}#k`, kb: false }));
    expect(result?.error).toMatchObject({ code: 'trusted_issuer.untrusted', detail: expect.stringContaining("not from the issuer's DID document") });
  });

  it('a did:web domain trusts the domain and its paths, not another host or a longer host name', async () => {
    const at = (iss: string) => trustOf([WEB], QUERY, sdJwt('c', {}, { iss, kb: false }));
    expect((await at(WEB))?.data).toMatchObject({ matches: [{ rule: 'did_web_domain', issuer: WEB, entry: WEB }] });
    expect((await at(`${WEB}:issuers:pid`))?.data).toMatchObject({ matches: [{ rule: 'did_web_domain', issuer: `${WEB}:issuers:pid` }] });
    expect((await at('did:web:issuer.example.evil.test'))?.error?.code).toBe('trusted_issuer.untrusted');
    expect((await at('did:web:evil.test:issuer.example'))?.error?.code).toBe('trusted_issuer.untrusted');
  });

  it('a did:web with a path is exact: neither its parent nor its children', async () => {
    const exact = `${WEB}:issuers:pid`;
    const at = (iss: string) => trustOf([exact], QUERY, sdJwt('c', {}, { iss, kb: false }));
    expect((await at(exact))?.data).toMatchObject({ matches: [{ rule: 'did', issuer: exact }] });
    expect((await at(WEB))?.error?.code).toBe('trusted_issuer.untrusted');
    expect((await at(`${exact}:sub`))?.error?.code).toBe('trusted_issuer.untrusted');
  });

  it('Data Integrity: the controller of the proof verification method must be the trusted issuer', async () => {
    const credential = (vm: string) => ({ ...vc(ISSUER_KEY), proof: { type: 'DataIntegrityProof', verificationMethod: vm, proofPurpose: 'assertionMethod' } });
    expect((await trustOf([ISSUER_KEY], LDP_QUERY, ldp('c', credential(`${ISSUER_KEY}#${ISSUER_KEY.slice(8)}`))))?.error).toBeUndefined();
    expect((await trustOf([ISSUER_KEY], LDP_QUERY, ldp('c', credential(`${OTHER_KEY}#${OTHER_KEY.slice(8)}`))))?.error?.code).toBe('trusted_issuer.untrusted');
  });

  it('a credential with an x5c chain is judged by its chain only, whatever DID its iss names', async () => {
    const result = await trustOf([ISSUER_KEY], QUERY, sdJwt('c', {}, { iss: ISSUER_KEY, x5c: ca.x5c, kb: false }));
    expect(result?.error?.code).toBe('trusted_issuer.untrusted');
    const rooted = await trustOf([ca.rootPem, ISSUER_KEY], QUERY, sdJwt('c', {}, { iss: ISSUER_KEY, x5c: ca.x5c, kb: false }));
    expect(rooted?.data).toMatchObject({ matches: [{ rule: 'root' }] });
  });

  it('a trust-list source that names the DID (a LoTE service digital identity) trusts it by the list rule', async () => {
    const asked: unknown[] = [];
    const lists: IssuerAnchorSource = {
      issuerAnchors: async () => ({ anchors: [] }),
      issuerDid: async (query) => {
        asked.push(query);
        return query.did === WEB ? { listed: true } : { listed: false, refusal: { code: 'trusted_issuer.withdrawn', detail: 'the list withdrew this issuer' } };
      },
    };
    expect((await trustOf(undefined, QUERY, sdJwt('c', {}, { iss: WEB, kb: false }), lists))?.data).toMatchObject({ matches: [{ rule: 'list', issuer: WEB }] });
    expect(asked).toEqual([{ did: WEB, credentialTypes: ['urn:eudi:pid:1'] }]);
    expect((await trustOf(undefined, QUERY, sdJwt('c', {}, { iss: ISSUER_KEY, kb: false }), lists))?.error?.code).toBe('trusted_issuer.withdrawn');
  });

  it('refuses at construction what is neither a PEM certificate nor a DID, naming the entry', () => {
    expect(() => localValidator({ trustedIssuers: ['https://issuer.example'] })).toThrow(ConfigError);
    try {
      localValidator({ trustedIssuers: [ISSUER_KEY, 'did:web:issuer.example#key-1'] });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).issues?.[0]).toMatchObject({ path: 'trustedIssuers.1', message: expect.stringContaining('not a DID') });
    }
  });
});
