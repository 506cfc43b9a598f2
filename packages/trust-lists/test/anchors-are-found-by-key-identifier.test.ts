import 'reflect-metadata';
import { X509Certificate } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { buildSignedList, createListSigner, createTestCa, generateTestKeys, GRANTED, type TestCa, type TestKeys } from '@vp-authorizer/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnchorIndex, type ChainTop } from '../src/anchor-index.js';
import { trustLists } from '../src/index.js';
import { keyIdentifiers } from '../src/key-identifiers.js';
import { listedCertificate } from '../src/listed-certificate.js';
import { SERVICE_TYPES } from '../src/vouching.js';
import { tempFolder } from './__fixtures__/temp-files.js';

const DAY = 86_400_000;
const PID = new Set([SERVICE_TYPES.pidIssuance]);

/** A certificate signed by `issuerKeys`, naming `issuerName` and carrying exactly `extensions`. */
async function certificate(subject: string, issuerName: string, issuerKeys: TestKeys, extensions: x509.Extension[], keys?: TestKeys): Promise<Uint8Array> {
  const own = keys ?? (await generateTestKeys());
  const cert = await x509.X509CertificateGenerator.create({
    subject,
    issuer: issuerName,
    serialNumber: '0102',
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 30 * DAY),
    publicKey: own.keys.publicKey,
    signingKey: issuerKeys.keys.privateKey,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    extensions,
  });
  return new Uint8Array(cert.rawData);
}

const topOf = (der: Uint8Array): ChainTop => {
  const cert = new X509Certificate(Buffer.from(der));
  return { ...keyIdentifiers(der), names: [cert.issuer, cert.subject] };
};

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
    const renamed = await certificate('CN=Leaf', 'CN=Another Name For The CA', ca, [await x509.AuthorityKeyIdentifierExtension.create(ca.keys.publicKey)]);
    const { anchors } = indexOf(ca.der).find(topOf(renamed), PID, Date.now());
    expect(anchors.map((a) => a.certificate.der)).toEqual([new Uint8Array(ca.der)]);
  });

  it("of two anchors sharing a name, returns only the one whose key the top's authority key identifier names", async () => {
    const twin = await createTestCa(ca.cert.subject);
    const leaf = await twin.issue({ subject: 'CN=Twin Leaf' });
    const { anchors } = indexOf(ca.der, twin.der).find(topOf(leaf.der), PID, Date.now());
    expect(anchors.map((a) => a.certificate.der)).toEqual([new Uint8Array(twin.der)]);
  });

  it('falls back to names when the authority key identifier names no listed key, leaving the decision to path validation', async () => {
    const stranger = await generateTestKeys();
    const other = await certificate('CN=Leaf', ca.cert.subject, stranger, [await x509.AuthorityKeyIdentifierExtension.create(stranger.keys.publicKey)]);
    expect(indexOf(ca.der).find(topOf(other), PID, Date.now()).anchors.map((a) => a.certificate.der)).toEqual([new Uint8Array(ca.der)]);
  });

  it('finds the top itself by its subject key identifier when it is listed', async () => {
    const intermediate = await ca.issue({ subject: 'CN=Listed Intermediate', ca: true });
    const { anchors } = indexOf(intermediate.der).find(topOf(intermediate.der), PID, Date.now());
    expect(anchors).toHaveLength(1);
  });

  it('falls back to names for a top without an authority key identifier and for an anchor without a subject key identifier', async () => {
    const leafWithoutIds = await certificate('CN=Leaf', ca.cert.subject, ca, []);
    expect(indexOf(ca.der).find(topOf(leafWithoutIds), PID, Date.now()).anchors).toHaveLength(1);
    const rootKeys = await generateTestKeys();
    const rootWithoutIds = await certificate('CN=Old Root', 'CN=Old Root', rootKeys, [new x509.BasicConstraintsExtension(true, 1, true)], rootKeys);
    const leaf = await certificate('CN=Leaf', 'CN=Old Root', rootKeys, [await x509.AuthorityKeyIdentifierExtension.create(rootKeys.keys.publicKey)]);
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
    const renamed = await certificate('CN=Leaf', 'CN=Another Name For The CA', ca, [await x509.AuthorityKeyIdentifierExtension.create(ca.keys.publicKey)]);
    expect((await lists.issuerAnchors({ purpose: 'credential', credentialTypes: ['urn:eudi:pid:1'], top: renamed })).anchors).toEqual([new X509Certificate(ca.der).toString()]);
    expect(lists.inTrustedList({ top: renamed, lists: [path] })).toBe(true);
    lists.close();
  });
});
