import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { buildSignedList, createListSigner, createTestCa, generateTestKeys, GRANTED, type ListSigner } from '@vp-authorizer/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { trustLists } from '../src/index.js';
import { keyIdentifiers } from '../src/key-identifiers.js';
import { SERVICE_TYPES } from '../src/vouching.js';
import { tempFolder } from './__fixtures__/temp-files.js';

const DAY = 86_400_000;
const pid = { purpose: 'credential' as const, credentialTypes: ['urn:eudi:pid:1'] };

/** A self-signed CA with its own key, carrying `keyId` as its subject key identifier. */
async function carrying(name: string, keyId: string): Promise<string> {
  const keys = await generateTestKeys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name,
    keys: keys.keys,
    serialNumber: '01',
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 30 * DAY),
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    extensions: [new x509.BasicConstraintsExtension(true, 1, true), new x509.SubjectKeyIdentifierExtension(keyId)],
  });
  return Buffer.from(cert.rawData).toString('base64');
}

let signer: ListSigner;
beforeAll(async () => {
  signer = await createListSigner('UT list signer');
});

describe('the anchors a chain is tried against', () => {
  it('are refused, naming the lists, when more than 64 listed certificates carry the key identifier its top names; etsi_tl checks at most 64 signatures', async () => {
    const issuer = await createTestCa('CN=PID Provider CA,C=UT');
    const leaf = await issuer.issue({ subject: 'CN=Leaf' });
    const keyId = keyIdentifiers(issuer.der).subjectKeyId!;
    const clones = await Promise.all(Array.from({ length: 64 }, (_, i) => carrying(`CN=Clone ${i}`, keyId)));
    const folder = tempFolder();
    const service = (certificates: string[]) => ({ type: SERVICE_TYPES.pidIssuance, status: GRANTED, since: new Date(Date.now() - DAY), certificates });
    const own = folder.write('own.xml', buildSignedList({ services: [service([issuer.x5c])] }, signer));
    const crowded = folder.write('crowded.xml', buildSignedList({ services: clones.map((clone) => service([clone])) }, signer));
    const withClones = trustLists({ sources: [`tl:${own}`, `tl:${crowded}`], signers: [signer.pem] });
    await withClones.ready();
    const answer = await withClones.issuerAnchors({ ...pid, top: leaf.der });
    expect(answer.anchors).toEqual([]);
    expect(answer.refusal?.code).toBe('trusted_issuer.untrusted');
    expect(answer.refusal?.detail).toMatch(/^65 listed certificates share the key identifier or name the chain's top states \(at most 64 are tried\), in .*own\.xml, .*crowded\.xml$/);
    // etsi_tl checks as many signatures at most: the issuer listed after 64 such certificates is not reached.
    const crowdedFirst = trustLists({ sources: [`tl:${crowded}`, `tl:${own}`], signers: [signer.pem] });
    await crowdedFirst.ready();
    expect(crowdedFirst.inTrustedList({ top: leaf.der, lists: [crowded, own] })).toBe(false);
    expect(crowdedFirst.inTrustedList({ top: leaf.der, lists: [own] })).toBe(true);
    crowdedFirst.close();
    withClones.close();
    // 64 in all are still handed over: the issuer and 63 certificates sharing its identifier.
    const fewer = folder.write('fewer.xml', buildSignedList({ services: clones.slice(1).map((clone) => service([clone])) }, signer));
    const withFewer = trustLists({ sources: [`tl:${own}`, `tl:${fewer}`], signers: [signer.pem] });
    await withFewer.ready();
    expect((await withFewer.issuerAnchors({ ...pid, top: leaf.der })).anchors).toHaveLength(64);
    withFewer.close();
  });
});
