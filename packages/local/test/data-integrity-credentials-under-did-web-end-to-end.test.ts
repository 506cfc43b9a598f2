// Data Integrity credentials (ldp_vc) under did:web over HTTP: a real authorizer, the test wallet
// fetching the signed request, credentials issued with @digitalbazaar/vc by keys a did:web
// document lists (Multikey), that document served over real TLS on 127.0.0.1, judged by the local
// verifier (DID resolution through the outbound policy) and localValidator({ trustedIssuers }).
// First: it loads @vp-authorizer/testing, which installs the reflect polyfill @peculiar/x509 needs.
import { type DidTrustingAuthorizer, startDidTrustingAuthorizer } from './__fixtures__/did-trusting-authorizer.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDidKey, issueCredential, unsignedCredential, type DidKeyHolder, type KeyKind, type SigningSuite } from '../src/__fixtures__/data-integrity-issuer.js';
import { type DidWebHost, startDidWebHost } from '../src/__fixtures__/did-web-host.js';

let host: DidWebHost;
let authorizer: DidTrustingAuthorizer;

/**
 * A fresh key of `kind` speaking as `did` (`#key-1`), its document served by the host. `listed`
 * false: the document lists the key but not for assertionMethod.
 */
async function didWebIssuer(did: string, kind: KeyKind, { listed = true } = {}): Promise<DidKeyHolder> {
  const holder = await createDidKey(kind);
  const keyPair = holder.keyPair as DidKeyHolder['keyPair'] & { id: string; controller: string };
  keyPair.controller = did;
  keyPair.id = `${did}#key-1`;
  host.set(did, {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
    id: did,
    verificationMethod: [{ id: keyPair.id, type: 'Multikey', controller: did, publicKeyMultibase: keyPair.publicKeyMultibase }],
    assertionMethod: listed ? [keyPair.id] : [],
    authentication: [keyPair.id],
  });
  return { ...holder, did, verificationMethod: keyPair.id };
}

beforeAll(async () => {
  host = await startDidWebHost();
  // The did:web domain, its paths included, is the only trusted issuer.
  authorizer = await startDidTrustingAuthorizer(host, { trustedIssuers: [host.did] });
}, 60_000);
afterAll(async () => {
  await authorizer?.close();
  await host?.close();
});

const QUERY = { id: 'c', format: 'ldp_vc', meta: { type_values: [['https://www.w3.org/2018/credentials#VerifiableCredential']] }, require_cryptographic_holder_binding: false };

/** Create, let the wallet fetch the signed request, post the credential (a JSON object) over direct_post. */
const present = (credential: Record<string, unknown>) => authorizer.present(QUERY, credential);

const degree = (issuer: DidKeyHolder) => unsignedCredential(issuer.did, { id: 'did:example:holder', degree: { type: 'ExampleBachelorDegree', name: 'Bachelor of Science and Arts' } });

describe('Data Integrity credentials under did:web over HTTP', () => {
  it.each([
    ['eddsa-rdfc-2022', 'Ed25519', ''],
    ['ecdsa-rdfc-2019', 'P-256', ':issuers:degrees'],
    ['ecdsa-jcs-2019', 'P-384', ':issuers:p384'],
  ] as [SigningSuite, KeyKind, string][])('%s by a %s key of did:web%s: authorized, the document fetched over TLS, trusted by the did:web domain', async (suite, kind, path) => {
    const issuer = await didWebIssuer(`${host.did}${path}`, kind);
    const before = host.requests.length;
    const flow = await present(await issueCredential(degree(issuer), issuer, suite));
    expect(flow.failed).toEqual([]);
    expect(flow.status).toBe('authorized');
    expect(flow.policies.find((p) => p.policy === 'proof')?.data).toMatchObject({ issuer: issuer.did, cryptosuite: suite, verificationMethod: `${issuer.did}#key-1` });
    expect(flow.policies.find((p) => p.policy === 'trustedIssuer')?.data).toMatchObject({ matches: [{ rule: 'did_web_domain', issuer: issuer.did, entry: host.did }] });
    expect(host.requests.slice(before)).toContain(path === '' ? '/.well-known/did.json' : `/${path.slice(1).replaceAll(':', '/')}/did.json`);
  });

  it('a credential changed after issuance: rejected proof.signature_invalid', async () => {
    const issuer = await didWebIssuer(`${host.did}:issuers:changed`, 'Ed25519');
    const vc = await issueCredential(degree(issuer), issuer, 'eddsa-rdfc-2022');
    (vc.credentialSubject as Record<string, unknown>).degree = { type: 'ExampleBachelorDegree', name: 'Doctor of Medicine' };
    const flow = await present(vc);
    expect(flow.status).toBe('rejected');
    expect(flow.failed).toContain('proof.signature_invalid');
  });

  it('a key the did:web document lists but not for assertionMethod, or does not list at all: rejected did.key_not_found', async () => {
    const unlisted = await didWebIssuer(`${host.did}:issuers:unlisted`, 'Ed25519', { listed: false });
    const first = await present(await issueCredential(degree(unlisted), unlisted, 'eddsa-rdfc-2022'));
    expect(first.status).toBe('rejected');
    expect(first.failed).toContain('did.key_not_found');
    // A key of the attacker's, named as a key id the issuer's document does not have.
    const issuer = await didWebIssuer(`${host.did}:issuers:forged`, 'Ed25519');
    const stranger = await createDidKey('Ed25519');
    const keyPair = stranger.keyPair as DidKeyHolder['keyPair'] & { id: string; controller: string };
    keyPair.controller = issuer.did;
    keyPair.id = `${issuer.did}#key-2`;
    const second = await present(await issueCredential(degree(issuer), { ...stranger, did: issuer.did, verificationMethod: keyPair.id }, 'eddsa-rdfc-2022'));
    expect(second.status).toBe('rejected');
    expect(second.failed).toContain('did.key_not_found');
  });

  it('an issuer outside the trusted domain (a did:key) is verified but not trusted: rejected trusted_issuer.untrusted', async () => {
    const issuer = await createDidKey('Ed25519');
    const flow = await present(await issueCredential(degree(issuer), issuer, 'eddsa-rdfc-2022'));
    expect(flow.status).toBe('rejected');
    expect(flow.failed).toContain('trusted_issuer.untrusted');
    expect(flow.failed).not.toContain('proof.signature_invalid');
  });
});
