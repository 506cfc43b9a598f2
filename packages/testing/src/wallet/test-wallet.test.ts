import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataItem, Verifier, cborEncode } from '@animo-id/mdoc';
import { sessionTranscriptBytes as coreSessionTranscriptBytes } from '@vp-authorizer/core/formats';
import * as x509 from '@peculiar/x509';
import { type JWK, calculateJwkThumbprint, compactDecrypt, decodeJwt, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { base64UrlToBytes, base64UrlToText, toBase64Url } from './base64url.js';
import { mdocContext } from './mdoc-context.js';
import { type MiniVerifier, type MiniVerifierOptions, startMiniVerifier } from './__fixtures__/mini-verifier.js';
import { RequestObjectFetchError } from './receive-request.js';
import { createTestIssuer } from './test-issuer.js';
import { type TestWallet, createTestWallet } from './test-wallet.js';
import type { SdJwtWalletCredential } from './wallet-credential.js';

const issuer = await createTestIssuer();
const PID = 'urn:eudi:pid:1';
const MDL = 'org.iso.18013.5.1.mDL';
const pidQuery = { id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: [PID] }, claims: [{ path: ['given_name'] }, { path: ['address', 'locality'] }] };
const mdlQuery = { id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: MDL }, claims: [{ path: ['org.iso.18013.5.1', 'family_name'] }] };

const verifiers: MiniVerifier[] = [];
afterEach(async () => {
  await Promise.all(verifiers.splice(0).map((v) => v.close()));
});

async function setup(options: MiniVerifierOptions = {}) {
  const verifier = await startMiniVerifier({ dcqlQuery: { credentials: [pidQuery, mdlQuery] }, ...options });
  verifiers.push(verifier);
  const wallet = await createTestWallet();
  const pid = await wallet.addSdJwtVc(issuer, {
    id: 'pid',
    vct: PID,
    claims: { given_name: 'Erika', family_name: 'Mustermann', address: { locality: 'Berlin', postal_code: '10115' } },
    disclosable: ['given_name', 'family_name', 'address', 'address.locality', 'address.postal_code'],
  });
  await wallet.addMdoc(issuer, { docType: MDL, namespaces: { 'org.iso.18013.5.1': { family_name: 'Mustermann', given_name: 'Erika', age_over_18: true } } });
  return { verifier, wallet, pid };
}

async function decryptLastResponse(verifier: MiniVerifier) {
  const jwe = verifier.responses.at(-1)!.response!;
  const { plaintext, protectedHeader } = await compactDecrypt(jwe, await importJWK(verifier.encryptionPrivateJwk, 'ECDH-ES'));
  return { header: protectedHeader, payload: JSON.parse(new TextDecoder().decode(plaintext)) as { vp_token: Record<string, string[]>; state?: string; id_token?: string } };
}

/** Independent KB-JWT check with jose: signature with cnf.jwk, sd_hash, nonce, aud. */
async function checkKbJwt(presentation: string, credential: SdJwtWalletCredential) {
  const cut = presentation.lastIndexOf('~') + 1;
  const kb = presentation.slice(cut);
  const { payload, protectedHeader } = await jwtVerify(kb, await importJWK(credential.holderKey!.publicJwk as JWK, 'ES256'), { typ: 'kb+jwt' });
  const sdHashOk = payload.sd_hash === createHash('sha256').update(presentation.slice(0, cut)).digest('base64url');
  return { payload, protectedHeader, sdHashOk, disclosures: presentation.slice(0, cut).split('~').slice(1, -1).map((d) => JSON.parse(base64UrlToText(d))) };
}

describe('wallet.receive', () => {
  it('POSTs wallet_metadata (one JSON parameter) and wallet_nonce, and verifies the request object', async () => {
    const { verifier, wallet } = await setup();
    const request = await wallet.receive(verifier.authorizeUrl, { verifierTrustAnchors: [verifier.rootCertificatePem] });
    expect(verifier.requestPosts).toHaveLength(1);
    const posted = verifier.requestPosts[0]!;
    expect(Object.keys(posted).sort()).toEqual(['wallet_metadata', 'wallet_nonce']);
    expect(JSON.parse(posted.wallet_metadata!)).toMatchObject({
      client_id_prefixes_supported: ['x509_hash'],
      request_object_signing_alg_values_supported: ['ES256'],
      authorization_encryption_alg_values_supported: ['ECDH-ES'],
      authorization_encryption_enc_values_supported: ['A128GCM', 'A256GCM'],
    });
    expect(request).toMatchObject({ clientId: verifier.clientId, nonce: verifier.nonce, state: verifier.state, responseMode: 'direct_post.jwt', walletNonce: posted.wallet_nonce });
    expect(request.dcqlQuery?.credentials.map((c) => c.id)).toEqual(['pid', 'mdl']);
  });

  it('uses GET without wallet metadata when request_uri_method is get', async () => {
    const { verifier, wallet } = await setup({ requestUriMethod: 'get' });
    const request = await wallet.receive(verifier.authorizeUrl);
    expect(verifier.requestPosts).toHaveLength(0);
    expect(request.walletNonce).toBeUndefined();
  });

  it.each(['typ', 'client_id', 'wallet_nonce', 'signature'] as const)('rejects a request object with a broken %s', async (breakRequest) => {
    const { verifier, wallet } = await setup({ breakRequest });
    await expect(wallet.receive(verifier.authorizeUrl)).rejects.toThrow();
  });

  it('rejects a chain that does not lead to the configured verifier root', async () => {
    const { verifier, wallet } = await setup();
    await expect(wallet.receive(verifier.authorizeUrl, { verifierTrustAnchors: [issuer.rootCertificatePem] })).rejects.toThrow(/trusted verifier root/);
  });

  it('reports a non-200 request_uri answer with its status', async () => {
    const { verifier, wallet } = await setup();
    const url = verifier.authorizeUrl.replace('%2Frequest', '%2Fnowhere');
    await expect(wallet.receive(url)).rejects.toBeInstanceOf(RequestObjectFetchError);
  });

  it('keeps what a refusing request_uri answered out of the error message (it may be an internal page)', async () => {
    const server = createServer((_req, res) => void res.writeHead(403, { 'content-type': 'text/plain' }).end('INTERNAL-SECRET token=abc'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const wallet = await createTestWallet();
      const refused = await wallet.receive(`openid4vp://?client_id=x&request_uri=${encodeURIComponent(`http://127.0.0.1:${port}/secret`)}`).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(RequestObjectFetchError);
      expect((refused as RequestObjectFetchError).message).toBe('test wallet: request_uri answered 403');
      expect((refused as RequestObjectFetchError).status).toBe(403);
      expect((refused as RequestObjectFetchError).body).toBe('INTERNAL-SECRET token=abc'); // for callers that know whom they asked
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('wallet.respond (direct_post.jwt)', () => {
  it('encrypts {vp_token, state} to the request key (ECDH-ES, kid, A256GCM) with a valid SD-JWT+KB and mdoc', async () => {
    const { verifier, wallet, pid } = await setup();
    const request = await wallet.receive(verifier.authorizeUrl);
    const result = await wallet.respond(request);
    expect(result.status).toBe(200);
    expect(Object.keys(verifier.responses[0]!)).toEqual(['response']);
    const { header, payload } = await decryptLastResponse(verifier);
    expect(header).toMatchObject({ alg: 'ECDH-ES', enc: 'A256GCM', kid: 'enc-1' });
    expect(header.apv).toBeUndefined();
    expect(payload.state).toBe(verifier.state);
    expect(Object.keys(payload.vp_token)).toEqual(['pid', 'mdl']);

    const sdJwt = payload.vp_token.pid![0]!;
    const kb = await checkKbJwt(sdJwt, pid);
    expect(kb.protectedHeader).toMatchObject({ typ: 'kb+jwt', alg: 'ES256' });
    expect(kb.payload).toMatchObject({ nonce: verifier.nonce, aud: verifier.clientId });
    expect(kb.sdHashOk).toBe(true);
    // Only the requested claims (and the address container) are disclosed.
    expect(kb.disclosures.map((d) => d[1]).sort()).toEqual(['address', 'given_name', 'locality']);

    // The deviceSignature covers the 1.0 SessionTranscript as the core computes it.
    const transcript = coreSessionTranscriptBytes({
      kind: 'redirect',
      clientId: verifier.clientId,
      nonce: verifier.nonce,
      responseUri: verifier.responseUri,
      jwkThumbprint: await calculateJwkThumbprint(verifier.encryptionPublicJwk, 'sha256'),
    });
    const mdoc = await new Verifier().verifyDeviceResponse(
      {
        encodedDeviceResponse: base64UrlToBytes(payload.vp_token.mdl![0]!),
        encodedSessionTranscript: cborEncode(new DataItem({ buffer: transcript })),
        trustedCertificates: [new Uint8Array(new x509.X509Certificate(issuer.rootCertificatePem).rawData)],
      },
      mdocContext,
    );
    expect([...mdoc.documents[0]!.getIssuerNameSpace('org.iso.18013.5.1')!.keys()]).toEqual(['family_name']);
  });

  it('honours enc A128GCM and the library encryption path (which adds apv = base64url(nonce))', async () => {
    const { verifier, wallet } = await setup();
    const request = await wallet.receive(verifier.authorizeUrl);
    await wallet.respond(request, { enc: 'A128GCM' });
    expect((await decryptLastResponse(verifier)).header.enc).toBe('A128GCM');
    await wallet.respond(request, { encryption: 'openid4vc' });
    const { header, payload } = await decryptLastResponse(verifier);
    expect(header).toMatchObject({ alg: 'ECDH-ES', kid: 'enc-1', apv: toBase64Url(verifier.nonce) });
    expect(payload.state).toBe(verifier.state);
  });

  it('can submit the same encrypted body twice (replay)', async () => {
    const { verifier, wallet } = await setup();
    const request = await wallet.receive(verifier.authorizeUrl);
    const first = await wallet.respond(request);
    await wallet.submit(first.prepared);
    expect(verifier.responses).toHaveLength(2);
    expect(verifier.responses[1]).toEqual(verifier.responses[0]);
  });

  it('wrong SessionTranscript knob: the deviceSignature no longer verifies against the real transcript', async () => {
    const { verifier, wallet } = await setup();
    const request = await wallet.receive(verifier.authorizeUrl);
    const [, mdl] = wallet.credentials;
    await wallet.respond(request, { presentations: { mdl: [{ credential: mdl!, tamper: { nonce: 'another-nonce' } }] } });
    const { payload } = await decryptLastResponse(verifier);
    const transcript = coreSessionTranscriptBytes({
      kind: 'redirect',
      clientId: verifier.clientId,
      nonce: verifier.nonce,
      responseUri: verifier.responseUri,
      jwkThumbprint: await calculateJwkThumbprint(verifier.encryptionPublicJwk, 'sha256'),
    });
    await expect(
      new Verifier().verifyDeviceResponse(
        {
          encodedDeviceResponse: base64UrlToBytes(payload.vp_token.mdl![0]!),
          encodedSessionTranscript: cborEncode(new DataItem({ buffer: transcript })),
          trustedCertificates: [new Uint8Array(new x509.X509Certificate(issuer.rootCertificatePem).rawData)],
        },
        mdocContext,
      ),
    ).rejects.toThrow();
  });
});

describe('SD-JWT negative knobs', () => {
  async function present(wallet: TestWallet, verifier: MiniVerifier, pid: SdJwtWalletCredential, tamper: object) {
    const request = await wallet.receive(verifier.authorizeUrl);
    await wallet.respond(request, { presentations: { pid: [{ credential: pid, tamper }] } });
    return (await decryptLastResponse(verifier)).payload.vp_token.pid![0]!;
  }

  it('nonce, aud and iat overrides land in the KB-JWT', async () => {
    const { verifier, wallet, pid } = await setup();
    const kb = await checkKbJwt(await present(wallet, verifier, pid, { nonce: 'n2', audience: 'x509_hash:other', iatOffsetSeconds: -365 * 86_400 }), pid);
    expect(kb.payload).toMatchObject({ nonce: 'n2', aud: 'x509_hash:other' });
    expect(kb.payload.iat!).toBeLessThan(Date.now() / 1000 - 364 * 86_400);
    expect(kb.sdHashOk).toBe(true);
  });

  it('sdHash wrong: still signed by the holder key, sd_hash does not match', async () => {
    const { verifier, wallet, pid } = await setup();
    const kb = await checkKbJwt(await present(wallet, verifier, pid, { sdHash: 'wrong' }), pid);
    expect(kb.sdHashOk).toBe(false);
    expect(kb.payload.nonce).toBe(verifier.nonce);
  });

  it('wrongHolderKey: the KB-JWT does not verify with cnf.jwk', async () => {
    const { verifier, wallet, pid } = await setup();
    await expect(checkKbJwt(await present(wallet, verifier, pid, { wrongHolderKey: true }), pid)).rejects.toThrow(/signature/);
  });

  it('omitHolderBinding: the presentation ends with ~ (no KB-JWT)', async () => {
    const { verifier, wallet, pid } = await setup();
    const presentation = await present(wallet, verifier, pid, { omitHolderBinding: true });
    expect(presentation.endsWith('~')).toBe(true);
  });
});

describe('transaction data, JWT VP, SIOP and PE', () => {
  it('KB-JWT carries transaction_data_hashes over the entry strings as sent', async () => {
    const entry = toBase64Url(JSON.stringify({ type: 'payment', credential_ids: ['pid'], transaction_data_hashes_alg: ['sha-256'], amount: '10' }));
    const other = toBase64Url(JSON.stringify({ type: 'payment', credential_ids: ['mdl'] }));
    const { verifier, wallet, pid } = await setup({ transactionData: [entry, other] });
    const request = await wallet.receive(verifier.authorizeUrl);
    await wallet.respond(request);
    const kb = await checkKbJwt((await decryptLastResponse(verifier)).payload.vp_token.pid![0]!, pid);
    expect(kb.payload.transaction_data_hashes).toEqual([createHash('sha256').update(entry).digest('base64url')]);
    expect(kb.payload.transaction_data_hashes_alg).toBe('sha-256');
  });

  it('vp_token id_token over direct_post: VCDM 1.1 JWT VP and a self-issued ID token', async () => {
    const verifier = await startMiniVerifier({
      responseMode: 'direct_post',
      responseType: 'vp_token id_token',
      dcqlQuery: { credentials: [{ id: 'degree', format: 'jwt_vc_json', meta: { type_values: [['https://www.w3.org/2018/credentials#VerifiableCredential']] } }] },
    });
    verifiers.push(verifier);
    const wallet = await createTestWallet();
    await wallet.addJwtVc(issuer, { dataModel: '1.1', claims: { degree: 'BSc' } });
    const request = await wallet.receive(verifier.authorizeUrl);
    await wallet.respond(request);
    const form = verifier.responses[0]!;
    expect(Object.keys(form).sort()).toEqual(['id_token', 'state', 'vp_token']);
    const vp = (JSON.parse(form.vp_token!) as Record<string, string[]>).degree![0]!;
    const vpHeader = decodeProtectedHeader(vp);
    expect(vpHeader.kid).toBe(`${wallet.holderDid}#0`);
    const holderJwk = JSON.parse(base64UrlToText(wallet.holderDid.slice('did:jwk:'.length)));
    const { payload } = await jwtVerify(vp, await importJWK(holderJwk, 'ES256'), { audience: verifier.clientId });
    expect(payload).toMatchObject({ iss: wallet.holderDid, nonce: verifier.nonce });
    expect(decodeJwt((payload.vp as { verifiableCredential: string[] }).verifiableCredential[0]!).iss).toBe(issuer.did);

    const idToken = await jwtVerify(form.id_token!, await importJWK(decodeJwt(form.id_token!).sub_jwk as JWK, 'ES256'), { audience: verifier.clientId });
    const thumbprint = await calculateJwkThumbprint(idToken.payload.sub_jwk as JWK, 'sha256');
    expect(idToken.payload).toMatchObject({ iss: `urn:ietf:params:oauth:jwk-thumbprint:sha-256:${thumbprint}`, sub: `urn:ietf:params:oauth:jwk-thumbprint:sha-256:${thumbprint}`, nonce: verifier.nonce });
  });

  it('Presentation Exchange: VCDM 2.0 VP as a single vp_token with a presentation_submission', async () => {
    const verifier = await startMiniVerifier({
      responseMode: 'direct_post',
      presentationDefinition: { id: 'pd-1', input_descriptors: [{ id: 'degree', format: { jwt_vp_json: { alg: ['ES256'] } } }] },
    });
    verifiers.push(verifier);
    const wallet = await createTestWallet();
    await wallet.addJwtVc(issuer, { dataModel: '2.0', claims: { degree: 'MSc' } });
    await wallet.respond(await wallet.receive(verifier.authorizeUrl));
    const form = verifier.responses[0]!;
    expect(decodeProtectedHeader(form.vp_token!).typ).toBe('vp+jwt');
    expect(JSON.parse(form.presentation_submission!)).toMatchObject({
      definition_id: 'pd-1',
      descriptor_map: [{ id: 'degree', format: 'jwt_vp_json', path: '$', path_nested: { format: 'jwt_vc_json', path: '$.verifiableCredential[0]' } }],
    });
    const payload = decodeJwt(form.vp_token!);
    expect(payload).toMatchObject({ nonce: verifier.nonce, aud: verifier.clientId, type: ['VerifiablePresentation'] });
  });
});

describe('DC API', () => {
  it('unsigned dc_api.jwt: JWE {vp_token}, KB aud origin:<origin>, DC API handover for the mdoc', async () => {
    const wallet = await createTestWallet();
    const pid = await wallet.addSdJwtVc(issuer, { vct: PID, claims: { given_name: 'Erika' } });
    await wallet.addMdoc(issuer, { docType: MDL, namespaces: { 'org.iso.18013.5.1': { family_name: 'Mustermann' } } });
    const { generateKeyPair, exportJWK } = await import('jose');
    const keys = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
    const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'dc-1', alg: 'ECDH-ES' };
    const getRequest = {
      protocol: 'openid4vp-v1-unsigned',
      data: {
        response_type: 'vp_token',
        response_mode: 'dc_api.jwt',
        nonce: 'dc-nonce-123',
        client_metadata: { jwks: { keys: [jwk] }, encrypted_response_enc_values_supported: ['A128GCM'], vp_formats_supported: {} },
        dcql_query: { credentials: [pidQuery, mdlQuery].map((q) => ({ ...q, claims: q.claims.slice(0, 1) })) },
      },
    };
    const { digitalCredentialGetResponse } = await wallet.respondDcApi(getRequest, { origin: 'https://rp.example' });
    expect(Object.keys(digitalCredentialGetResponse)).toEqual(['response']);
    const { plaintext, protectedHeader } = await compactDecrypt((digitalCredentialGetResponse as { response: string }).response, keys.privateKey);
    expect(protectedHeader).toMatchObject({ kid: 'dc-1', enc: 'A128GCM' });
    const payload = JSON.parse(new TextDecoder().decode(plaintext));
    expect(payload.state).toBeUndefined();
    const kb = await checkKbJwt(payload.vp_token.pid[0], pid);
    expect(kb.payload.aud).toBe('origin:https://rp.example');
    const transcript = coreSessionTranscriptBytes({ kind: 'dc_api', origin: 'https://rp.example', nonce: 'dc-nonce-123', jwkThumbprint: await calculateJwkThumbprint(jwk, 'sha256') });
    await new Verifier().verifyDeviceResponse(
      {
        encodedDeviceResponse: base64UrlToBytes(payload.vp_token.mdl[0]),
        encodedSessionTranscript: cborEncode(new DataItem({ buffer: transcript })),
        trustedCertificates: [new Uint8Array(new x509.X509Certificate(issuer.rootCertificatePem).rawData)],
      },
      mdocContext,
    );
  });

  it('unsigned dc_api: plain {vp_token}', async () => {
    const wallet = await createTestWallet();
    await wallet.addSdJwtVc(issuer, { vct: PID, claims: { given_name: 'Erika' } });
    const { digitalCredentialGetResponse } = await wallet.respondDcApi(
      { protocol: 'openid4vp-v1-unsigned', data: { response_type: 'vp_token', response_mode: 'dc_api', nonce: 'n-1', dcql_query: { credentials: [{ id: 'pid', format: 'dc+sd-jwt' }] } } },
      { origin: 'https://rp.example' },
    );
    expect(Object.keys((digitalCredentialGetResponse as { vp_token: object }).vp_token)).toEqual(['pid']);
  });

  it('signed dc_api: verifies data.request (x5c, expected_origins) and answers {vp_token} with aud origin:<origin>', async () => {
    const { SignJWT } = await import('jose');
    const { createTestCa } = await import('./test-ca.js');
    const ca = await createTestCa();
    const leaf = await ca.issue({ subject: 'CN=dc verifier' });
    const clientId = `x509_hash:${createHash('sha256').update(leaf.der).digest('base64url')}`;
    const sign = async (expectedOrigins: string[]) =>
      new SignJWT({
        client_id: clientId,
        response_type: 'vp_token',
        response_mode: 'dc_api',
        nonce: 'signed-nonce-1',
        expected_origins: expectedOrigins,
        dcql_query: { credentials: [{ id: 'pid', format: 'dc+sd-jwt' }] },
        client_metadata: { vp_formats_supported: { 'dc+sd-jwt': {} } },
      })
        .setProtectedHeader({ alg: 'ES256', typ: 'oauth-authz-req+jwt', x5c: [leaf.x5c] })
        .setIssuedAt()
        .sign(await importJWK(leaf.privateJwk as JWK, 'ES256'));
    const wallet = await createTestWallet();
    const pid = await wallet.addSdJwtVc(issuer, { vct: PID, claims: { given_name: 'Erika' } });
    const { request, digitalCredentialGetResponse } = await wallet.respondDcApi(
      { protocol: 'openid4vp-v1-signed', data: { request: await sign(['https://rp.example']) } },
      { origin: 'https://rp.example', verifierTrustAnchors: [ca.pem] },
    );
    expect(request.clientId).toBe(clientId);
    const presentation = (digitalCredentialGetResponse as { vp_token: Record<string, string[]> }).vp_token.pid![0]!;
    expect((await checkKbJwt(presentation, pid)).payload.aud).toBe('origin:https://rp.example');
    await expect(
      wallet.respondDcApi({ protocol: 'openid4vp-v1-signed', data: { request: await sign(['https://elsewhere.example']) } }, { origin: 'https://rp.example' }),
    ).rejects.toThrow();
  });
});
