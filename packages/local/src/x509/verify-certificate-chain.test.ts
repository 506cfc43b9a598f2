import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { ExtendedKeyUsageExtension, Extension, KeyUsageFlags } from '@peculiar/x509';
import { createSelfSignedLeaf, createTestCa, withIssue } from '@vp-authorizer/testing';
import { authorityKeyIdentifiers } from './authority-key-identifiers.js';
import { verifyCertificateChain } from './verify-certificate-chain.js';

const now = new Date();
const DAY = 86_400_000;

describe('verifyCertificateChain', () => {
  it('accepts a leaf issued by a configured root', async () => {
    const root = await createTestCa();
    const leaf = await root.issue({ subject: 'CN=Issuer' });
    const result = await verifyCertificateChain([leaf.x5c], [root.pem], now);
    expect(result.valid).toBe(true);
    if (result.valid) {
      expect(result.leaf.cert.subject).toBe('CN=Issuer');
      expect(result.anchorIncluded).toBe(false);
      expect(result.leafIsAnchor).toBe(false);
    }
  });

  it('accepts leaf + intermediate, with or without the anchor at the end, and DER input', async () => {
    const root = await createTestCa();
    const intermediate = await root.issue({ subject: 'CN=Intermediate', ca: true });
    const leaf = await intermediate.issue({ subject: 'CN=Leaf' });
    expect((await verifyCertificateChain([leaf.x5c, intermediate.x5c], [root.pem], now)).valid).toBe(true);
    const withAnchor = await verifyCertificateChain([leaf.der, intermediate.der, root.der], [root.pem], now);
    expect(withAnchor.valid && withAnchor.anchorIncluded).toBe(true);
  });

  it('refuses a chain that ends with a trusted root other than the one that issued the certificate before it', async () => {
    // Both roots trusted; the wallet appends root L to a chain root M issued (an mdoc's unprotected
    // x5chain is not covered by the issuer's signature), so the chain would read as L's.
    const rootM = await createTestCa('CN=Root M');
    const rootL = await createTestCa('CN=Root L');
    const leaf = await rootM.issue({ subject: 'CN=Issuer under M' });
    const appended = await verifyCertificateChain([leaf.der, rootL.der], [rootM.pem, rootL.pem], now);
    expect(appended).toMatchObject({ valid: false, code: 'trusted_issuer.chain_invalid', detail: expect.stringContaining('not signed by the trust anchor the chain ends with') });
    const honest = await verifyCertificateChain([leaf.der, rootM.der], [rootM.pem, rootL.pem], now);
    expect(honest.valid && honest.anchor.cert.subject).toBe('CN=Root M');
    expect((await verifyCertificateChain([leaf.der], [rootM.pem, rootL.pem], now)).valid).toBe(true);
  });

  it('rejects a chain to an unconfigured root as untrusted', async () => {
    const root = await createTestCa();
    const other = await createTestCa('CN=Other Root');
    const leaf = await root.issue({ subject: 'CN=Issuer' });
    const result = await verifyCertificateChain([leaf.x5c], [other.pem], now);
    expect(result).toMatchObject({ valid: false, code: 'trusted_issuer.untrusted' });
  });

  it('rejects an expired leaf and a not-yet-valid leaf', async () => {
    const root = await createTestCa();
    const expired = await root.issue({ subject: 'CN=Old', notBefore: new Date(Date.now() - 10 * DAY), notAfter: new Date(Date.now() - DAY) });
    const future = await root.issue({ subject: 'CN=Future', notBefore: new Date(Date.now() + DAY), notAfter: new Date(Date.now() + 10 * DAY) });
    expect(await verifyCertificateChain([expired.x5c], [root.pem], now)).toMatchObject({ valid: false, code: 'trusted_issuer.chain_invalid', detail: 'the leaf certificate has expired' });
    expect(await verifyCertificateChain([future.x5c], [root.pem], now)).toMatchObject({ valid: false, code: 'trusted_issuer.chain_invalid', detail: 'the leaf certificate is not yet valid' });
  });

  it('rejects an intermediate without the CA flag', async () => {
    const root = await createTestCa();
    const notCa = await root.issue({ subject: 'CN=Not a CA' });
    const leaf = await withIssue(notCa).issue({ subject: 'CN=Leaf' });
    const result = await verifyCertificateChain([leaf.x5c, notCa.x5c], [root.pem], now);
    expect(result).toMatchObject({ valid: false, code: 'trusted_issuer.chain_invalid' });
  });

  it('rejects a chain whose links are out of order', async () => {
    const root = await createTestCa();
    const intermediate = await root.issue({ subject: 'CN=Intermediate', ca: true });
    const leaf = await intermediate.issue({ subject: 'CN=Leaf' });
    const other = await root.issue({ subject: 'CN=Unrelated', ca: true });
    expect(await verifyCertificateChain([leaf.x5c, other.x5c], [root.pem], now)).toMatchObject({ valid: false, code: 'trusted_issuer.chain_invalid' });
  });

  it('reports garbage input as chain_invalid, not a throw', async () => {
    const root = await createTestCa();
    expect(await verifyCertificateChain(['not-base64!'], [root.pem], now)).toMatchObject({ valid: false, code: 'trusted_issuer.chain_invalid' });
    expect(await verifyCertificateChain([], [root.pem], now)).toMatchObject({ valid: false });
  });

  it('treats a pinned self-signed (non-CA) leaf that is itself an anchor as leafIsAnchor', async () => {
    const pinned = await createSelfSignedLeaf();
    const result = await verifyCertificateChain([pinned.x5c], [pinned.pem], now);
    expect(result.valid && result.leafIsAnchor).toBe(true);
    expect(result.valid && result.anchorIncluded).toBe(false);
  });

  it('reports x5c [anchor, anchor] as leafIsAnchor and anchorIncluded (HAIP bypass)', async () => {
    const pinned = await createSelfSignedLeaf();
    const result = await verifyCertificateChain([pinned.x5c, pinned.x5c], [pinned.pem], now);
    expect(result).toMatchObject({ valid: true, leafIsAnchor: true, anchorIncluded: true });
  });

  it('flags an anchor anywhere in a multi-certificate x5c as anchorIncluded', async () => {
    const root = await createTestCa();
    const leaf = await root.issue({ subject: 'CN=Leaf' });
    expect(await verifyCertificateChain([leaf.x5c, root.x5c], [root.pem], now)).toMatchObject({ valid: true, anchorIncluded: true, leafIsAnchor: false });
  });

  it('rejects a CA certificate as the signing leaf, also when it is the anchor itself', async () => {
    const root = await createTestCa();
    const subCa = await root.issue({ subject: 'CN=Sub CA', ca: true });
    expect(await verifyCertificateChain([subCa.x5c], [root.pem], now)).toMatchObject({ valid: false, code: 'trusted_issuer.chain_invalid', detail: expect.stringMatching(/is a CA/) });
    expect(await verifyCertificateChain([root.x5c], [root.pem], now)).toMatchObject({ valid: false, detail: expect.stringMatching(/is a CA/) });
    expect(await verifyCertificateChain([root.x5c, root.x5c], [root.pem], now)).toMatchObject({ valid: false, detail: expect.stringMatching(/is a CA/) });
  });

  it('rejects a leaf whose keyUsage lacks digitalSignature; accepts one without keyUsage', async () => {
    const root = await createTestCa();
    const noSig = await root.issue({ subject: 'CN=Encipher only', keyUsage: KeyUsageFlags.keyEncipherment });
    expect(await verifyCertificateChain([noSig.x5c], [root.pem], now)).toMatchObject({ valid: false, detail: expect.stringMatching(/digitalSignature/) });
    const noKu = await root.issue({ subject: 'CN=No KU', keyUsage: null, extensions: [new ExtendedKeyUsageExtension(['1.3.6.1.5.5.7.3.2'])] });
    expect((await verifyCertificateChain([noKu.x5c], [root.pem], now)).valid).toBe(true);
  });

  it('rejects nameConstraints on an intermediate (not evaluated), accepts them on the anchor', async () => {
    // NameConstraints ::= SEQUENCE { permittedSubtrees [0] { GeneralSubtree { dNSName "example.com" } } }
    const nameConstraints = new Extension('2.5.29.30', true, Buffer.from('3011a00f300d820b6578616d706c652e636f6d', 'hex'));
    const root = await createTestCa();
    const constrained = await root.issue({ subject: 'CN=Constrained Intermediate', ca: true, extensions: [nameConstraints] });
    const leaf = await constrained.issue({ subject: 'CN=Leaf' });
    expect(await verifyCertificateChain([leaf.x5c, constrained.x5c], [root.pem], now)).toMatchObject({ valid: false, code: 'trusted_issuer.chain_invalid', detail: expect.stringMatching(/nameConstraints/) });
    // The same intermediate configured as the anchor: its constraints are the operator's choice.
    const anchored = await verifyCertificateChain([leaf.x5c], [constrained.pem], now);
    expect(anchored.valid).toBe(true);
  });
});

describe('authorityKeyIdentifiers', () => {
  it('returns the base64url AKI of each certificate', async () => {
    const root = await createTestCa();
    const leaf = await root.issue({ subject: 'CN=Leaf' });
    const akis = authorityKeyIdentifiers([leaf.x5c]);
    expect(akis).toHaveLength(1);
    const { SubjectKeyIdentifierExtension } = await import('@peculiar/x509');
    const ski = root.cert.getExtension(SubjectKeyIdentifierExtension)!.keyId;
    expect(akis[0]).toBe(Buffer.from(ski, 'hex').toString('base64url'));
  });
});
