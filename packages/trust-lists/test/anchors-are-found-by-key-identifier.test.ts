import 'reflect-metadata';
import { X509Certificate } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { verifyCertificateChain } from '@vp-authorizer/local';
import { buildSignedList, createListSigner, createTestCa, generateTestKeys, GRANTED, type TestCa, type TestKeys, WITHDRAWN } from '@vp-authorizer/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnchorIndex, type ChainTop } from '../src/anchor-index.js';
import { trustLists } from '../src/index.js';
import { keyIdentifiers } from '../src/key-identifiers.js';
import { listedCertificate } from '../src/listed-certificate.js';
import { SERVICE_TYPES } from '../src/vouching.js';
import { certificateWithExtensions } from './__fixtures__/certificate-with-extensions.js';
import { tempFolder } from './__fixtures__/temp-files.js';

const DAY = 86_400_000;
const PID = new Set([SERVICE_TYPES.pidIssuance]);


const topOf = (der: Uint8Array): ChainTop => {
  const cert = new X509Certificate(Buffer.from(der));
  return { ...keyIdentifiers(der), names: [cert.issuer, cert.subject] };
};

/**
 * A namesake the leaf's authority key identifier does not name: the leaf's issuer states a subject
 * key identifier the leaf does not repeat (the leaf names the SHA-1 of the issuer's key, the
 * issuer states another value); another certificate, with another key and name, carries exactly
 * the identifier the leaf names.
 */
async function unnamedIssuerCase(): Promise<{ leaf: Uint8Array; issuer: Uint8Array; carrier: Uint8Array }> {
  const issuerKeys = await generateTestKeys();
  const ca = (name: string, keyId: string, keys: TestKeys) => certificateWithExtensions(name, name, keys, [new x509.BasicConstraintsExtension(true, 1, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true), new x509.SubjectKeyIdentifierExtension(keyId)], keys);
  const issuer = await ca('CN=PID Provider CA', '0102030405060708090a0b0c0d0e0f1011121314', issuerKeys);
  const leaf = await certificateWithExtensions('CN=Leaf', 'CN=PID Provider CA', issuerKeys, [await x509.AuthorityKeyIdentifierExtension.create(issuerKeys.keys.publicKey), new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true)]);
  const named = keyIdentifiers(leaf).authorityKeyId!;
  expect(named).not.toBe(keyIdentifiers(issuer).subjectKeyId);
  const carrier = await ca('CN=Carrier', named, await generateTestKeys());
  expect(keyIdentifiers(carrier).subjectKeyId).toBe(named);
  return { leaf, issuer, carrier };
}

const indexOf = (...ders: Uint8Array[]) =>
  new AnchorIndex([
    {
      source: 'ut.xml',
      content: {
        kind: 'etsi-tl',
        listType: 'generic',
        issuedAt: 0,
        pointers: [],
        signer: listedCertificate(ders[0]!, 'signer'),
        services: ders.map((der, i) => ({ serviceType: SERVICE_TYPES.pidIssuance, provider: `P${i}`, name: 'PID', certificates: [listedCertificate(der, `anchor ${i}`)], statuses: [{ status: GRANTED, from: 0 }] })),
      },
    },
  ]);

describe('key identifiers', () => {
  it('are read from the DER as the certificate states them', async () => {
    const ca = await createTestCa('CN=Key Id CA');
    const leaf = await ca.issue({ subject: 'CN=Key Id Leaf' });
    const skiOf = (der: Uint8Array) => new x509.X509Certificate(new Uint8Array(der)).getExtension(x509.SubjectKeyIdentifierExtension)!.keyId.toLowerCase();
    expect(keyIdentifiers(leaf.der)).toEqual({ subjectKeyId: skiOf(leaf.der), authorityKeyId: skiOf(ca.der) });
    expect(keyIdentifiers(ca.der)).toEqual({ subjectKeyId: skiOf(ca.der) });
  });

  it('are absent, not guessed, for bytes that are not a certificate', () => {
    expect(keyIdentifiers(new Uint8Array([0x30, 0x84, 0xff, 0xff, 0xff, 0xff, 0x30]))).toEqual({});
    expect(keyIdentifiers(new Uint8Array([]))).toEqual({});
  });
});

describe('the anchor index', () => {
  let ca: TestCa;
  beforeAll(async () => {
    ca = await createTestCa('CN=Listed PID Provider CA');
  });

  it("finds the anchor by the top's authority key identifier even when the names differ", async () => {
    const renamed = await certificateWithExtensions('CN=Leaf', 'CN=Another Name For The CA', ca, [await x509.AuthorityKeyIdentifierExtension.create(ca.keys.publicKey)]);
    const { anchors } = indexOf(ca.der).find(topOf(renamed), PID, Date.now());
    expect(anchors.map((a) => a.certificate.der)).toEqual([new Uint8Array(ca.der)]);
  });

  it("of two anchors sharing a name, returns only the one whose key the top's authority key identifier names", async () => {
    const twin = await createTestCa(ca.cert.subject);
    const leaf = await twin.issue({ subject: 'CN=Twin Leaf' });
    const { anchors } = indexOf(ca.der, twin.der).find(topOf(leaf.der), PID, Date.now());
    expect(anchors.map((a) => a.certificate.der)).toEqual([new Uint8Array(twin.der)]);
  });

  it('does not add a namesake under another key identifier once the one the top names is found: path validation refuses such an issuer, even alone', async () => {
    const { leaf, issuer, carrier } = await unnamedIssuerCase();
    expect(indexOf(carrier, issuer).find(topOf(leaf), PID, Date.now()).anchors.map((a) => a.certificate.der)).toEqual([new Uint8Array(carrier)]);
    // Its key signed the leaf, but the identifiers disagree: OpenSSL's issuer check, which path validation applies, refuses it.
    const alone = await verifyCertificateChain([Buffer.from(leaf).toString('base64')], [new X509Certificate(Buffer.from(issuer)).toString()], new Date());
    expect(alone).toMatchObject({ valid: false, code: 'trusted_issuer.untrusted' });
  });

  it('falls back to names when the authority key identifier names no listed key, leaving the decision to path validation', async () => {
    const stranger = await generateTestKeys();
    const other = await certificateWithExtensions('CN=Leaf', ca.cert.subject, stranger, [await x509.AuthorityKeyIdentifierExtension.create(stranger.keys.publicKey)]);
    expect(indexOf(ca.der).find(topOf(other), PID, Date.now()).anchors.map((a) => a.certificate.der)).toEqual([new Uint8Array(ca.der)]);
  });

  it('finds the top itself by its subject key identifier when it is listed', async () => {
    const intermediate = await ca.issue({ subject: 'CN=Listed Intermediate', ca: true });
    const { anchors } = indexOf(intermediate.der).find(topOf(intermediate.der), PID, Date.now());
    expect(anchors).toHaveLength(1);
  });

  it('falls back to names for a top without an authority key identifier and for an anchor without a subject key identifier', async () => {
    const leafWithoutIds = await certificateWithExtensions('CN=Leaf', ca.cert.subject, ca, []);
    expect(indexOf(ca.der).find(topOf(leafWithoutIds), PID, Date.now()).anchors).toHaveLength(1);
    const rootKeys = await generateTestKeys();
    const rootWithoutIds = await certificateWithExtensions('CN=Old Root', 'CN=Old Root', rootKeys, [new x509.BasicConstraintsExtension(true, 1, true)], rootKeys);
    const leaf = await certificateWithExtensions('CN=Leaf', 'CN=Old Root', rootKeys, [await x509.AuthorityKeyIdentifierExtension.create(rootKeys.keys.publicKey)]);
    expect(indexOf(rootWithoutIds).find(topOf(leaf), PID, Date.now()).anchors).toHaveLength(1);
  });
});

describe('a trusted list', () => {
  it('vouches for a chain whose top names the listed key, through issuerAnchors and etsi_tl', async () => {
    const signer = await createListSigner('UT list signer');
    const ca = await createTestCa('CN=Listed PID Provider CA');
    const path = tempFolder().write('ut.xml', buildSignedList({ services: [{ type: SERVICE_TYPES.pidIssuance, status: GRANTED, since: new Date(Date.now() - DAY), certificates: [ca.x5c] }] }, signer));
    const lists = trustLists({ sources: [`tl:${path}`], signers: [signer.pem] });
    await lists.ready();
    const renamed = await certificateWithExtensions('CN=Leaf', 'CN=Another Name For The CA', ca, [await x509.AuthorityKeyIdentifierExtension.create(ca.keys.publicKey)]);
    expect((await lists.issuerAnchors({ purpose: 'credential', credentialTypes: ['urn:eudi:pid:1'], top: renamed })).anchors).toEqual([new X509Certificate(ca.der).toString()]);
    expect(lists.inTrustedList({ top: renamed, lists: [path] })).toBe(true);
    lists.close();
  });

  it("keeps the refusal of the issuer the top's key identifier names when another list grants namesakes, and returns none of them", async () => {
    const signer = await createListSigner('UT list signer');
    const issuer = await createTestCa('CN=PID Provider CA,C=UT');
    const leaf = await issuer.issue({ subject: 'CN=Leaf' });
    const namesakes = await Promise.all(Array.from({ length: 40 }, () => createTestCa('CN=PID Provider CA,C=UT')));
    const folder = tempFolder();
    const service = (ca: TestCa, status: string) => ({ type: SERVICE_TYPES.pidIssuance, status, since: new Date(Date.now() - DAY), certificates: [ca.x5c] });
    const own = folder.write('own.xml', buildSignedList({ services: [service(issuer, WITHDRAWN)] }, signer));
    const other = folder.write('other.xml', buildSignedList({ services: namesakes.map((ca) => service(ca, GRANTED)) }, signer));
    const lists = trustLists({ sources: [`tl:${own}`, `tl:${other}`], signers: [signer.pem] });
    await lists.ready();
    const answer = await lists.issuerAnchors({ purpose: 'credential', credentialTypes: ['urn:eudi:pid:1'], top: leaf.der });
    expect(answer).toMatchObject({ anchors: [], refusal: { code: 'trusted_issuer.withdrawn' } });
    lists.close();
    // Granted, the issuer comes back alone: what path validation parses does not grow with the namesakes.
    expect(indexOf(...namesakes.map((ca) => ca.der), issuer.der).find(topOf(leaf.der), PID, Date.now()).anchors.map((a) => a.certificate.der)).toEqual([new Uint8Array(issuer.der)]);
  });
});
