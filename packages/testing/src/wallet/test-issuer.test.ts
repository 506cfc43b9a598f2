import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { Verifier, parseIssuerSigned } from '@animo-id/mdoc';
import { digest } from '@sd-jwt/crypto-nodejs';
import { decodeSdJwt, getClaims } from '@sd-jwt/decode';
import { compactVerify, decodeJwt, decodeProtectedHeader, importX509, jwtVerify } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { base64UrlToBytes } from './base64url.js';
import { generateP256KeyPair } from './holder-key.js';
import { mdocContext } from './mdoc-context.js';
import { readStatusList } from './status-list.js';
import { createTestIssuer } from './test-issuer.js';

const issuer = await createTestIssuer();
const holder = await generateP256KeyPair();
const pem = (base64: string) => `-----BEGIN CERTIFICATE-----\n${base64}\n-----END CERTIFICATE-----`;
const servers: { close(): Promise<void> }[] = [];
afterAll(async () => Promise.all(servers.map((s) => s.close())));

describe('test issuer certificate chain', () => {
  it('is root → leaf: the leaf is signed by the root, is not self-signed and not a CA', async () => {
    const root = new x509.X509Certificate(issuer.rootCertificatePem);
    const leaf = new x509.X509Certificate(issuer.leafCertificatePem);
    expect(await root.isSelfSigned()).toBe(true);
    expect(await leaf.isSelfSigned()).toBe(false);
    expect(await leaf.verify({ publicKey: root.publicKey, signatureOnly: true })).toBe(true);
    expect(leaf.getExtension(x509.BasicConstraintsExtension)?.ca).toBe(false);
    expect(issuer.x5c).toHaveLength(1);
    expect(new x509.X509Certificate(Buffer.from(issuer.x5c[0]!, 'base64')).equal(leaf)).toBe(true);
  });

  it('a second issuer has a different root', async () => {
    const other = await createTestIssuer();
    const leaf = new x509.X509Certificate(other.leafCertificatePem);
    const root = new x509.X509Certificate(issuer.rootCertificatePem);
    expect(await leaf.verify({ publicKey: root.publicKey, signatureOnly: true })).toBe(false);
  });
});

describe('issueSdJwtVc', () => {
  it('signs a dc+sd-jwt with x5c = [leaf], cnf, status and selectively disclosable claims', async () => {
    const compact = await issuer.issueSdJwtVc({
      vct: 'urn:eudi:pid:1',
      claims: { given_name: 'Erika', family_name: 'Mustermann', address: { locality: 'Berlin', country: 'DE' } },
      disclosable: ['given_name', 'family_name', 'address', 'address.locality'],
      holderPublicJwk: holder.publicJwk,
      status: { idx: 3, uri: 'https://status.example/1' },
    });
    expect(compact.endsWith('~')).toBe(true);
    const [issuerJwt] = compact.split('~');
    const header = decodeProtectedHeader(issuerJwt!);
    expect(header).toMatchObject({ alg: 'ES256', typ: 'dc+sd-jwt', x5c: issuer.x5c });
    const { payload } = await compactVerify(issuerJwt!, await importX509(pem(header.x5c![0]!), 'ES256'));
    const claims = JSON.parse(new TextDecoder().decode(payload));
    expect(claims).toMatchObject({ iss: issuer.issuerId, vct: 'urn:eudi:pid:1', cnf: { jwk: holder.publicJwk }, status: { status_list: { idx: 3, uri: 'https://status.example/1' } }, _sd_alg: 'sha-256' });
    expect(claims.given_name).toBeUndefined();
    expect(claims._sd).toHaveLength(3);
    const decoded = await decodeSdJwt(compact, digest);
    expect(decoded.disclosures).toHaveLength(4);
    expect(await getClaims(decoded.jwt.payload, decoded.disclosures, digest)).toMatchObject({
      given_name: 'Erika',
      address: { locality: 'Berlin', country: 'DE' },
    });
  });

  it("tamper 'issuer-signature' keeps the shape but fails verification", async () => {
    const compact = await issuer.issueSdJwtVc({ vct: 'v', claims: { a: 1 }, holderPublicJwk: holder.publicJwk, tamper: 'issuer-signature' });
    const [issuerJwt] = compact.split('~');
    await expect(compactVerify(issuerJwt!, await importX509(issuer.leafCertificatePem, 'ES256'))).rejects.toThrow(/signature/);
  });
});

describe('issueMdoc', () => {
  const namespaces = { 'org.iso.18013.5.1': { given_name: 'Erika', family_name: 'Mustermann', age_over_18: true } };

  it('produces IssuerSigned that verifies against the root with the device key in the MSO', async () => {
    const issued = await issuer.issueMdoc({ docType: 'org.iso.18013.5.1.mDL', namespaces, deviceKeyJwk: holder.publicJwk });
    const document = parseIssuerSigned(base64UrlToBytes(issued.issuerSigned), 'org.iso.18013.5.1.mDL');
    expect(document.docType).toBe('org.iso.18013.5.1.mDL');
    expect(Object.fromEntries(document.getIssuerNameSpace('org.iso.18013.5.1')!)).toEqual(namespaces['org.iso.18013.5.1']);
    expect(document.issuerSigned.issuerAuth.certificateChain).toHaveLength(1);
    await new Verifier().verifyIssuerSignature(
      { trustedCertificates: [new Uint8Array(new x509.X509Certificate(issuer.rootCertificatePem).rawData)], issuerAuth: document.issuerSigned.issuerAuth, disableCertificateChainValidation: false },
      mdocContext,
    );
    const deviceKey = document.issuerSigned.issuerAuth.decodedPayload.deviceKeyInfo!.deviceKey;
    expect(Buffer.from(deviceKey.get(-2) as Uint8Array).toString('base64url')).toBe(holder.publicJwk.x);
  });

  it("tamper 'issuer-signature' makes the issuerAuth signature invalid", async () => {
    const issued = await issuer.issueMdoc({ docType: 'org.iso.18013.5.1.mDL', namespaces, deviceKeyJwk: holder.publicJwk, tamper: 'issuer-signature' });
    const document = parseIssuerSigned(base64UrlToBytes(issued.issuerSigned));
    await expect(
      new Verifier().verifyIssuerSignature(
        { trustedCertificates: [new Uint8Array(new x509.X509Certificate(issuer.rootCertificatePem).rawData)], issuerAuth: document.issuerSigned.issuerAuth, disableCertificateChainValidation: false },
        mdocContext,
      ),
    ).rejects.toThrow();
  });
});

describe('issueJwtVc', () => {
  it('VCDM 1.1: vc claim, iss = did:jwk of the issuer key, kid = its verification method', async () => {
    const jwt = await issuer.issueJwtVc({ dataModel: '1.1', subjectDid: 'did:example:holder', claims: { degree: 'BSc' } });
    const header = decodeProtectedHeader(jwt);
    expect(header.kid).toBe(`${issuer.did}#0`);
    const key = JSON.parse(Buffer.from(issuer.did.slice('did:jwk:'.length), 'base64url').toString());
    const { payload } = await jwtVerify(jwt, await webcryptoKey(key));
    expect(payload).toMatchObject({ iss: issuer.did, sub: 'did:example:holder', vc: { type: ['VerifiableCredential', 'TestCredential'], credentialSubject: { id: 'did:example:holder', degree: 'BSc' } } });
  });

  it('VCDM 2.0: the payload is the credential; x5c identity carries the leaf', async () => {
    const jwt = await issuer.issueJwtVc({ dataModel: '2.0', subjectDid: 'did:example:holder', claims: { degree: 'MSc' }, issuerIdentity: 'x5c' });
    expect(decodeProtectedHeader(jwt)).toMatchObject({ typ: 'vc+jwt', x5c: issuer.x5c });
    const { payload } = await jwtVerify(jwt, await importX509(issuer.leafCertificatePem, 'ES256'));
    expect(payload).toMatchObject({ '@context': ['https://www.w3.org/ns/credentials/v2'], issuer: issuer.issuerId, credentialSubject: { degree: 'MSc' } });
    expect(typeof payload.validUntil).toBe('string');
  });
});

describe('status list', () => {
  it('createStatusListToken: statuslist+jwt with x5c, sub = uri and readable bits', async () => {
    const token = await issuer.statusList.createStatusListToken({ uri: 'https://status.example/1', bits: 2, statuses: [0, 1, 2, 3, 0, 2] });
    expect(decodeProtectedHeader(token)).toMatchObject({ typ: 'statuslist+jwt', alg: 'ES256', x5c: issuer.x5c });
    const { payload } = await jwtVerify(token, await importX509(issuer.leafCertificatePem, 'ES256'), { typ: 'statuslist+jwt' });
    expect(payload.sub).toBe('https://status.example/1');
    const list = payload.status_list as { bits: 2; lst: string };
    expect([0, 1, 2, 3, 4, 5].map((idx) => readStatusList(list.lst, list.bits, idx))).toEqual([0, 1, 2, 3, 0, 2]);
  });

  it('startStatusListServer serves the current list and reflects setStatus', async () => {
    const server = await issuer.statusList.startStatusListServer({ size: 16 });
    servers.push(server);
    const { idx, uri } = server.allocate();
    expect(server.allocate().idx).toBe(idx + 1);
    const read = async () => {
      const response = await fetch(uri, { headers: { accept: 'application/statuslist+jwt' } });
      expect(response.headers.get('content-type')).toBe('application/statuslist+jwt');
      const payload = decodeJwt(await response.text());
      expect(payload.sub).toBe(uri);
      return readStatusList((payload.status_list as { lst: string }).lst, 1, idx);
    };
    expect(await read()).toBe(0);
    server.setStatus(idx, 1);
    expect(await read()).toBe(1);
    expect((await fetch(`${uri}x`)).status).toBe(404);
  });
});

async function webcryptoKey(jwk: JsonWebKey) {
  return webcrypto.subtle.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
}
