// Trusted issuers by DID over HTTP: a real authorizer, the test wallet fetching the signed request,
// JWT VCs and SD-JWT VCs issued under did:key and did:web (a did:web host over real TLS on
// 127.0.0.1), judged by localValidator({ trustedIssuers }) and the local verifier.
import { createTestCa } from '@vp-authorizer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DidKeyPair, didKey } from '../src/__fixtures__/did-keys.js';
import { type DidWebHost, startDidWebHost } from '../src/__fixtures__/did-web-host.js';
import { type DidTrustingAuthorizer, startDidTrustingAuthorizer } from './__fixtures__/did-trusting-authorizer.js';

let host: DidWebHost;
let trustedKey: DidKeyPair;
let untrustedKey: DidKeyPair;
/** did:web issuers: the host's own DID and one under its paths, each with its own key in its document. */
let webIssuer: DidKeyPair;
let webPathIssuer: DidKeyPair;
let authorizer: DidTrustingAuthorizer;

/** The signer of `key`, speaking as `did` with a `#key-1` in that DID's document. */
function asDidWeb(did: string, key: DidKeyPair): DidKeyPair {
  const kid = `${did}#key-1`;
  host.set(did, { '@context': ['https://www.w3.org/ns/did/v1'], id: did, verificationMethod: [{ id: kid, type: 'JsonWebKey2020', controller: did, publicKeyJwk: key.publicJwk }], assertionMethod: [kid] });
  return { ...key, did, kid, sign: (payload, header = {}) => key.sign(payload, { kid, ...header }) };
}

beforeAll(async () => {
  host = await startDidWebHost();
  trustedKey = await didKey('ed25519');
  untrustedKey = await didKey('p256');
  webIssuer = asDidWeb(host.did, await didKey('p256'));
  webPathIssuer = asDidWeb(`${host.did}:issuers:degrees`, await didKey('p256'));
  const unrelatedRoot = await createTestCa('CN=unrelated root');
  // One list: a certificate root, an exact did:key and a did:web domain (its paths included).
  authorizer = await startDidTrustingAuthorizer(host, { trustedIssuers: [unrelatedRoot.pem, trustedKey.did, host.did], trustAnchors: [unrelatedRoot.pem] });
}, 60_000);
afterAll(async () => {
  await authorizer?.close();
  await host?.close();
});

const now = () => Math.floor(Date.now() / 1000);
const VC_IRI = 'https://www.w3.org/2018/credentials#VerifiableCredential';

/** A VCDM 1.1 JWT VC (`iss` is the issuer DID), presented as is. */
const jwtVc = (issuer: DidKeyPair, header: Record<string, unknown> = {}) =>
  issuer.sign(
    { iss: issuer.did, sub: 'did:example:holder', iat: now(), nbf: now() - 60, exp: now() + 3600, vc: { '@context': ['https://www.w3.org/2018/credentials/v1'], type: ['VerifiableCredential'], credentialSubject: { id: 'did:example:holder', degree: 'MSc' } } },
    { typ: 'JWT', ...header },
  );
/** An SD-JWT VC with plain claims and no holder key, presented without a KB-JWT. */
const sdJwtVc = async (issuer: DidKeyPair, header: Record<string, unknown> = {}) =>
  `${await issuer.sign({ iss: issuer.did, vct: 'https://credentials.example/degree', iat: now(), exp: now() + 3600, degree: 'MSc' }, { typ: 'dc+sd-jwt', ...header })}~`;

const QUERIES = {
  jwt: { id: 'c', format: 'jwt_vc_json', meta: { type_values: [[VC_IRI]] }, require_cryptographic_holder_binding: false },
  sdjwt: { id: 'c', format: 'dc+sd-jwt', meta: { vct_values: ['https://credentials.example/degree'] }, require_cryptographic_holder_binding: false },
};

/** Create, let the wallet fetch the signed request, post the credential over direct_post. */
async function present(kind: keyof typeof QUERIES, credential: string) {
  const flow = await authorizer.present(QUERIES[kind], credential);
  return { ...flow, trust: flow.policies.find((p) => p.policy === 'trustedIssuer') };
}

describe.each(['jwt', 'sdjwt'] as const)('trusted issuers by DID over HTTP: %s', (kind) => {
  const issue = (issuer: DidKeyPair, header?: Record<string, unknown>) => (kind === 'jwt' ? jwtVc(issuer, header) : sdJwtVc(issuer, header));

  it('did:key listed exactly: authorized, the result names the DID rule', async () => {
    const flow = await present(kind, await issue(trustedKey));
    expect(flow.failed).toEqual([]);
    expect(flow.status).toBe('authorized');
    expect(flow.trust?.data).toEqual({ trusted: true, matches: [{ credential: 0, rule: 'did', issuer: trustedKey.did, entry: trustedKey.did }] });
  });

  it('did:web under a trusted domain (the domain itself and a path): authorized, its document fetched over TLS', async () => {
    const before = host.requests.length;
    for (const issuer of [webIssuer, webPathIssuer]) {
      const flow = await present(kind, await issue(issuer));
      expect(flow.failed).toEqual([]);
      expect(flow.status).toBe('authorized');
      expect(flow.trust?.data).toMatchObject({ matches: [{ rule: 'did_web_domain', issuer: issuer.did, entry: host.did }] });
    }
    expect(host.requests.slice(before)).toEqual(expect.arrayContaining(['/.well-known/did.json', '/issuers/degrees/did.json']));
  });

  it('a DID nobody listed: rejected trusted_issuer.untrusted', async () => {
    const flow = await present(kind, await issue(untrustedKey));
    expect(flow.status).toBe('rejected');
    expect(flow.failed).toContain('trusted_issuer.untrusted');
  });

  it('a trusted issuer DID with a key from another DID document: rejected', async () => {
    // Signed by the untrusted did:key's key, naming it as the key, under the trusted DID.
    const foreign = await (kind === 'jwt'
      ? untrustedKey.sign({ iss: trustedKey.did, iat: now(), exp: now() + 3600, vc: { '@context': ['https://www.w3.org/2018/credentials/v1'], type: ['VerifiableCredential'], credentialSubject: {} } }, { typ: 'JWT' })
      : untrustedKey.sign({ iss: trustedKey.did, vct: 'https://credentials.example/degree', iat: now(), exp: now() + 3600 }, { typ: 'dc+sd-jwt' }).then((jwt) => `${jwt}~`));
    const flow = await present(kind, foreign);
    expect(flow.status).toBe('rejected');
    expect(flow.failed).toEqual(expect.arrayContaining(['trusted_issuer.untrusted', 'did.key_not_found']));
  });

  it('a trusted did:web whose document does not hold the signing key: rejected', async () => {
    // The trusted domain's DID, a key id of that DID, but a key its document does not list.
    const stranger = await didKey('p256');
    const forged = { ...stranger, did: webIssuer.did, sign: (payload: Record<string, unknown>, header: Record<string, unknown> = {}) => stranger.sign(payload, { kid: `${webIssuer.did}#key-2`, ...header }) };
    const flow = await present(kind, await issue(forged));
    expect(flow.status).toBe('rejected');
    expect(flow.failed).toContain('did.key_not_found');
    // Signed by another key under the listed key id: the signature does not verify against the document's key.
    const wrongKey = { ...stranger, did: webIssuer.did, sign: (payload: Record<string, unknown>, header: Record<string, unknown> = {}) => stranger.sign(payload, { kid: webIssuer.kid, ...header }) };
    const second = await present(kind, await issue(wrongKey));
    expect(second.status).toBe('rejected');
    expect(second.failed).toContain('proof.signature_invalid');
  });
});
