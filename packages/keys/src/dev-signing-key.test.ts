import 'reflect-metadata';
import { X509Certificate } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { describe, expect, it } from 'vitest';
import { generateDevSigningKey } from './dev-signing-key.js';

describe('generateDevSigningKey', () => {
  it('produces a root CA and a leaf signed by it, with the root only as trust anchor', async () => {
    const dev = await generateDevSigningKey({ dnsName: 'verifier.test' });
    const root = new X509Certificate(dev.rootCertificatePem);
    const leaf = new X509Certificate(dev.leafCertificatePem);

    expect(root.ca).toBe(true);
    expect(root.checkIssued(root) && root.verify(root.publicKey)).toBe(true);
    expect(leaf.ca).toBe(false);
    expect(leaf.checkIssued(root)).toBe(true);
    expect(leaf.verify(root.publicKey)).toBe(true);
    expect(leaf.verify(leaf.publicKey)).toBe(false);
    expect(leaf.subjectAltName).toBe('DNS:verifier.test');
    const ku = new x509.X509Certificate(dev.leafCertificatePem).getExtension(x509.KeyUsagesExtension);
    expect(ku?.usages).toBe(x509.KeyUsageFlags.digitalSignature);

    expect(dev.signing.certificateChain).toEqual([dev.leafCertificatePem]);
    expect(dev.signing.trustAnchor).toBe(dev.rootCertificatePem);
    expect(leaf.checkPrivateKey((await import('node:crypto')).createPrivateKey({ key: dev.signing.privateKey as never, format: 'jwk' }))).toBe(true);
  });

  it('mints an mdoc reader certificate on request: the leaf carries the reader-authentication EKU beside digitalSignature', async () => {
    const plain = new x509.X509Certificate((await generateDevSigningKey()).leafCertificatePem);
    expect(plain.getExtension(x509.ExtendedKeyUsageExtension)).toBeNull();
    const reader = new x509.X509Certificate((await generateDevSigningKey({ readerAuth: true })).leafCertificatePem);
    expect(reader.getExtension(x509.ExtendedKeyUsageExtension)?.usages).toEqual(['1.0.18013.5.1.6']);
    expect(reader.getExtension(x509.KeyUsagesExtension)?.usages).toBe(x509.KeyUsageFlags.digitalSignature);
  });

  it('generates a different key every time', async () => {
    const [a, b] = await Promise.all([generateDevSigningKey(), generateDevSigningKey()]);
    expect(a.signing.privateKey.d).not.toBe(b.signing.privateKey.d);
  });
});
