/**
 * A Data Integrity presentation (ldp_vp) end to end over HTTP: the relying party creates a DCQL
 * request for an `ldp_vc`, the test wallet fetches and verifies the signed request object, the
 * holder signs a presentation with @digitalbazaar/vc (challenge = nonce, domain = client_id) of
 * a credential issued with the same library, and the authorizer's local verifier decides.
 */
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import * as Ed25519Multikey from '@digitalbazaar/ed25519-multikey';
import { cryptosuite as eddsaRdfc2022 } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import { createTestWallet, type ReceivedRequest } from '@vp-authorizer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eEnvironment, failedCodes, startE2eEnvironment } from './e2e-harness.js';

/** The issuing side's loader: @digitalbazaar/vc's own contexts plus the published examples context. */
const EXAMPLES_V2 = 'https://www.w3.org/ns/credentials/examples/v2';
const UNDEFINED_TERMS_V2 = 'https://www.w3.org/ns/credentials/undefined-terms/v2';
const documentLoader = async (url: string) =>
  url === EXAMPLES_V2
    ? { contextUrl: null, documentUrl: url, document: { '@context': { '@vocab': 'https://www.w3.org/ns/credentials/examples#' } } }
    : url === UNDEFINED_TERMS_V2
      ? { contextUrl: null, documentUrl: url, document: { '@context': { '@vocab': 'https://www.w3.org/ns/credentials/undefined-term#' } } }
      : vc.defaultDocumentLoader(url);

interface Key {
  did: string;
  signer(): unknown;
}
async function didKey(): Promise<Key> {
  const keyPair = await Ed25519Multikey.generate();
  keyPair.controller = `did:key:${keyPair.publicKeyMultibase}`;
  keyPair.id = `${keyPair.controller}#${keyPair.publicKeyMultibase}`;
  return { did: keyPair.controller, signer: () => keyPair.signer() };
}

let env: E2eEnvironment;
let issuer: Key;
let holder: Key;
let credential: Record<string, unknown>;
let person: Record<string, unknown>;

beforeAll(async () => {
  // The issuer is a did:key: issuer trust (a trust list, say) is the validator's business and is off here.
  env = await startE2eEnvironment({ validatorTrust: false });
  issuer = await didKey();
  holder = await didKey();
  credential = await vc.issue({
    credential: {
      '@context': ['https://www.w3.org/ns/credentials/v2', EXAMPLES_V2],
      type: ['VerifiableCredential', 'ExampleDegreeCredential'],
      issuer: issuer.did,
      validFrom: '2024-01-01T00:00:00Z',
      credentialSubject: { id: holder.did, degree: { type: 'ExampleBachelorDegree', name: 'Bachelor of Science and Arts' } },
    },
    suite: new DataIntegrityProof({ signer: issuer.signer(), cryptosuite: eddsaRdfc2022 }),
    documentLoader,
  });
  // The credential of OpenID4VP 1.0 B.1.1's type_values example: a VC 2.0 type from the undefined-terms context.
  person = await vc.issue({
    credential: {
      '@context': ['https://www.w3.org/ns/credentials/v2', UNDEFINED_TERMS_V2],
      type: ['VerifiableCredential', 'ExamplePersonCredential'],
      issuer: issuer.did,
      validFrom: '2024-01-01T00:00:00Z',
      credentialSubject: { id: holder.did, name: 'Jane Doe' },
    },
    suite: new DataIntegrityProof({ signer: issuer.signer(), cryptosuite: eddsaRdfc2022 }),
    documentLoader,
  });
});
afterAll(async () => env?.close());

const LDP_QUERY = { id: 'degree', format: 'ldp_vc', meta: { type_values: [['https://www.w3.org/2018/credentials#VerifiableCredential', 'https://www.w3.org/ns/credentials/examples#ExampleDegreeCredential']] }, claims: [{ path: ['credentialSubject', 'degree', 'name'] }] };

const presentation = (challenge: string, domain: string, credentials = [credential]) =>
  vc.signPresentation({
    presentation: { '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiablePresentation'], holder: holder.did, verifiableCredential: credentials },
    suite: new DataIntegrityProof({ signer: holder.signer(), cryptosuite: eddsaRdfc2022 }),
    challenge,
    domain,
    documentLoader,
  }) as Promise<Record<string, unknown>>;

/** Creates a direct_post request and lets the test wallet fetch and verify it. */
async function receive(query: Record<string, unknown> = LDP_QUERY): Promise<{ id: string; request: ReceivedRequest }> {
  const created = await env.rp.create({ responseMode: 'direct_post', query: { type: 'DCQL', dcql: { credentials: [query] } } });
  const wallet = await createTestWallet();
  return { id: created.authorizationId, request: await wallet.receive(created.authorizeUrl as string, { verifierTrustAnchors: [env.verifierRootPem] }) };
}

/** Posts `{vp_token, state}` to the response_uri as the wallet would (form encoded). */
async function post(request: ReceivedRequest, vp: Record<string, unknown>) {
  const wallet = await createTestWallet();
  return wallet.submit({ responseMode: 'direct_post', responseUri: request.responseUri!, payload: {}, form: { vp_token: JSON.stringify({ degree: [vp] }), state: request.state! } });
}

describe('ldp_vp over HTTP with the local verifier', () => {
  it('a presentation bound to the request nonce and client_id is authorized and its claims reach the relying party', async () => {
    const { id, request } = await receive();
    const answer = await post(request, await presentation(request.nonce, request.clientId!));
    expect(answer.status).toBe(200);
    expect(failedCodes(await env.rp.policyResponse(id))).toEqual([]);
    expect(await env.rp.status(id)).toBe('authorized');
    const [received] = await env.rp.credentials(id);
    expect(received).toMatchObject({ format: 'ldp_vc', credentialType: 'ExampleDegreeCredential', claims: { id: holder.did, degree: { name: 'Bachelor of Science and Arts' } } });
  });

  it('a presentation made for another request (its nonce) is rejected: holder_binding.nonce_mismatch', async () => {
    const { id, request } = await receive();
    const answer = await post(request, await presentation('a-nonce-of-another-request', request.clientId!));
    expect(answer.status).toBe(400);
    expect(await env.rp.status(id)).toBe('rejected');
    expect(failedCodes(await env.rp.policyResponse(id))).toContain('holder_binding.nonce_mismatch');
  });

  it('a presentation for another verifier (its domain) is rejected: holder_binding.aud_mismatch', async () => {
    const { id, request } = await receive();
    await post(request, await presentation(request.nonce, 'x509_hash:another-verifier'));
    expect(await env.rp.status(id)).toBe('rejected');
    expect(failedCodes(await env.rp.policyResponse(id))).toContain('holder_binding.aud_mismatch');
  });

  it('a credential changed after issuance is rejected: proof.signature_invalid', async () => {
    const { id, request } = await receive();
    const forged = structuredClone(credential);
    (forged.credentialSubject as { degree: { name: string } }).degree.name = 'Doctor of Medicine';
    await post(request, await presentation(request.nonce, request.clientId!, [forged]));
    expect(await env.rp.status(id)).toBe('rejected');
    expect(failedCodes(await env.rp.policyResponse(id))).toContain('proof.signature_invalid');
  });

  it('over the DC API the domain is origin:<origin>', async () => {
    const created = await env.rp.create({ responseMode: 'dc_api', protocol: 'openid4vp-v1-unsigned', expectedOrigins: ['https://rp.example'], query: { type: 'DCQL', dcql: { credentials: [LDP_QUERY] } } });
    const vp = await presentation(created.nonce, 'origin:https://rp.example');
    const posted = await env.rp.dcApi(created.authorizationId, 'dc_api', { origin: 'https://rp.example', digitalCredentialGetResponse: { vp_token: { degree: [vp] } } });
    expect(posted.status).toBe(200);
    expect(failedCodes(await env.rp.policyResponse(created.authorizationId))).toEqual([]);
    expect(await env.rp.status(created.authorizationId)).toBe('authorized');
  });
});

describe('DCQL type_values over HTTP compare the types expanded with the credential @context', () => {
  const SPEC_QUERY = {
    id: 'degree',
    format: 'ldp_vc',
    meta: { type_values: [['https://www.w3.org/2018/credentials#VerifiableCredential', 'https://www.w3.org/ns/credentials/undefined-term#ExamplePersonCredential']] },
  };

  it("the spec's own example query authorizes a VC 2.0 credential of exactly those types", async () => {
    const { id, request } = await receive(SPEC_QUERY);
    await post(request, await presentation(request.nonce, request.clientId!, [person]));
    expect(failedCodes(await env.rp.policyResponse(id))).toEqual([]);
    expect(await env.rp.status(id)).toBe('authorized');
  });

  it('a credential of other types is rejected: credential_query.meta_mismatch', async () => {
    const { id, request } = await receive(SPEC_QUERY);
    await post(request, await presentation(request.nonce, request.clientId!, [credential]));
    expect(await env.rp.status(id)).toBe('rejected');
    expect(failedCodes(await env.rp.policyResponse(id))).toContain('credential_query.meta_mismatch');
  });

  it('a query naming types as written (not expanded) is refused at creation, with a pointer to the entry', async () => {
    const response = await env.rp.call('POST', '/openid4/vp/v1_0/authorizations', { responseMode: 'direct_post', query: { type: 'DCQL', dcql: { credentials: [{ ...SPEC_QUERY, meta: { type_values: [['VerifiableCredential', 'ExamplePersonCredential']] } }] } } });
    expect(response.status).toBe(400);
    const body = response.body as { type: string; errors: { pointer: string; detail: string }[] };
    expect(body.errors.map((e) => e.pointer)).toEqual(['/query/dcql/credentials/0/meta/type_values/0/0', '/query/dcql/credentials/0/meta/type_values/0/1']);
    expect(body.errors[0]?.detail).toContain('https://www.w3.org/2018/credentials#VerifiableCredential');
  });
});
