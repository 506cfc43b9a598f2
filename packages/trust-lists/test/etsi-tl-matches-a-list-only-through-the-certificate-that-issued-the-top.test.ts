import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { buildSignedList, createListSigner, createTestCa, generateTestKeys, GRANTED, type ListSigner, type TestCa } from '@vp-authorizer/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { trustLists, type TrustLists } from '../src/index.js';
import { SERVICE_TYPES } from '../src/vouching.js';
import { certificateWithExtensions } from './__fixtures__/certificate-with-extensions.js';
import { tempFolder } from './__fixtures__/temp-files.js';

const DAY = 86_400_000;

// Two authorities with one subject name and their own keys, each granted in its own list: a
// namesake in the list a query names must not make a chain issued under the other one match.
let signer: ListSigner;
let own: TestCa;
let namesake: TestCa;
let lists: TrustLists;
let ownList: string;
let namesakeList: string;

const listWith = (folder: ReturnType<typeof tempFolder>, name: string, ca: TestCa) =>
  folder.write(name, buildSignedList({ services: [{ type: SERVICE_TYPES.pidIssuance, status: GRANTED, since: new Date(Date.now() - DAY), certificates: [Buffer.from(ca.der).toString('base64')] }] }, signer));

/** A certificate signed by `issuer`'s key under its name, carrying exactly `extensions` (none: no key identifiers). */
const issuedBy = (issuer: TestCa, subject: string, extensions: x509.Extension[] = []) => certificateWithExtensions(subject, issuer.cert.subject, issuer, extensions);

beforeAll(async () => {
  signer = await createListSigner('UT list signer');
  own = await createTestCa('CN=PID Provider CA,C=UT');
  namesake = await createTestCa('CN=PID Provider CA,C=UT');
  const folder = tempFolder();
  ownList = listWith(folder, 'own.xml', own);
  namesakeList = listWith(folder, 'namesake.xml', namesake);
  lists = trustLists({ sources: [`tl:${ownList}`, `tl:${namesakeList}`], signers: [signer.pem] });
  await lists.ready();
  return () => lists.close();
});

describe('trusted_authorities etsi_tl', () => {
  it('matches the list whose certificate issued the top, not the list holding a namesake with another key', async () => {
    const leaf = (await own.issue({ subject: 'CN=Leaf' })).der;
    expect(lists.inTrustedList({ top: leaf, lists: [ownList] })).toBe(true);
    expect(lists.inTrustedList({ top: leaf, lists: [namesakeList] })).toBe(false);
  });

  it('does not match a namesake for a top without key identifiers', async () => {
    const leaf = await issuedBy(own, 'CN=Leaf');
    expect(lists.inTrustedList({ top: leaf, lists: [ownList] })).toBe(true);
    expect(lists.inTrustedList({ top: leaf, lists: [namesakeList] })).toBe(false);
  });

  it("does not match a listed certificate whose name the top takes as its own subject", async () => {
    const impostor = await issuedBy(own, namesake.cert.subject);
    expect(lists.inTrustedList({ top: impostor, lists: [namesakeList] })).toBe(false);
  });

  it('matches a top that is itself the listed certificate', () => {
    expect(lists.inTrustedList({ top: namesake.der, lists: [namesakeList] })).toBe(true);
    expect(lists.inTrustedList({ top: namesake.der, lists: [ownList] })).toBe(false);
  });
});
