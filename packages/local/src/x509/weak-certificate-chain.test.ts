import 'reflect-metadata';
import { generateKeyPairSync, webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BasicConstraintsExtension, KeyUsageFlags, KeyUsagesExtension, X509CertificateGenerator, type X509Certificate } from '@peculiar/x509';
import { createTestCa } from '@vp-authorizer/testing';
import { verifyCertificateChain } from './verify-certificate-chain.js';
import { weakKeyProblem } from './certificate-strength.js';
import type { ParsedCertificate } from './certificate.js';

const now = new Date();
const DAY = 86_400_000;
const validity = { notBefore: new Date(Date.now() - DAY), notAfter: new Date(Date.now() + 365 * DAY) };
const leafExtensions = () => [new BasicConstraintsExtension(false, undefined, true), new KeyUsagesExtension(KeyUsageFlags.digitalSignature, true)];
const caExtensions = () => [new BasicConstraintsExtension(true, 1, true), new KeyUsagesExtension(KeyUsageFlags.keyCertSign, true)];
const b64 = (cert: X509Certificate) => Buffer.from(cert.rawData).toString('base64');

const rsaKeys = (modulusLength: number, hash: 'SHA-1' | 'SHA-256') =>
  webcrypto.subtle.generateKey({ name: 'RSASSA-PKCS1-v1_5', modulusLength, publicExponent: new Uint8Array([1, 0, 1]), hash }, true, ['sign', 'verify']) as Promise<CryptoKeyPair>;
const p256Keys = () => webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']) as Promise<CryptoKeyPair>;

/** An RSA-2048 root and a P-256 leaf, both signed with `hash` (sha1WithRSAEncryption when SHA-1). */
async function rsaChain(hash: 'SHA-1' | 'SHA-256') {
  const rootKeys = await rsaKeys(2048, hash);
  const signingAlgorithm = { name: 'RSASSA-PKCS1-v1_5', hash };
  const root = await X509CertificateGenerator.createSelfSigned({ name: 'CN=RSA Root', keys: rootKeys, signingAlgorithm, extensions: caExtensions(), ...validity });
  const leafKeys = await p256Keys();
  const leaf = await X509CertificateGenerator.create({ subject: 'CN=Leaf', issuer: root.subject, publicKey: leafKeys.publicKey, signingKey: rootKeys.privateKey, signingAlgorithm, extensions: leafExtensions(), ...validity });
  return { rootPem: root.toString('pem'), leaf: b64(leaf) };
}

/** A leaf for `publicKey` (CryptoKey or SPKI DER) issued by a strong P-256 test root. */
async function leafWithKey(publicKey: CryptoKey | ArrayBuffer) {
  const root = await createTestCa();
  const leaf = await X509CertificateGenerator.create({
    subject: 'CN=Weak Key Leaf',
    issuer: root.cert.subject,
    publicKey,
    signingKey: root.keys.privateKey,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    extensions: leafExtensions(),
    ...validity,
  });
  return { rootPem: root.pem, leaf: b64(leaf) };
}

describe('verifyCertificateChain refuses weak cryptography', () => {
  it('accepts the same RSA-2048 chain signed with SHA-256 (control)', async () => {
    const { rootPem, leaf } = await rsaChain('SHA-256');
    expect(await verifyCertificateChain([leaf], [rootPem], now)).toMatchObject({ valid: true });
  });

  it('refuses a leaf signed with sha1WithRSAEncryption by an RSA-2048 root', async () => {
    const { rootPem, leaf } = await rsaChain('SHA-1');
    expect(await verifyCertificateChain([leaf], [rootPem], now)).toMatchObject({ valid: false, code: 'trusted_issuer.weak_algorithm', detail: expect.stringMatching(/leaf certificate is signed with RSASSA-PKCS1-v1_5 with SHA-1/) });
  });

  it('refuses an intermediate signed with ecdsa-with-SHA1', async () => {
    const root = await createTestCa();
    const intermediateKeys = await p256Keys();
    const intermediate = await X509CertificateGenerator.create({
      subject: 'CN=SHA-1 Intermediate',
      issuer: root.cert.subject,
      publicKey: intermediateKeys.publicKey,
      signingKey: root.keys.privateKey,
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-1' },
      extensions: [new BasicConstraintsExtension(true, 0, true), new KeyUsagesExtension(KeyUsageFlags.keyCertSign, true)],
      ...validity,
    });
    const leafKeys = await p256Keys();
    const leaf = await X509CertificateGenerator.create({
      subject: 'CN=Leaf',
      issuer: intermediate.subject,
      publicKey: leafKeys.publicKey,
      signingKey: intermediateKeys.privateKey,
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
      extensions: leafExtensions(),
      ...validity,
    });
    expect(await verifyCertificateChain([b64(leaf), b64(intermediate)], [root.pem], now)).toMatchObject({ valid: false, code: 'trusted_issuer.weak_algorithm', detail: expect.stringMatching(/intermediate certificate 1 .*SHA-1/) });
  });

  it('refuses a leaf with an RSA-1024 key even when its signature is strong', async () => {
    const { rootPem, leaf } = await leafWithKey((await rsaKeys(1024, 'SHA-256')).publicKey);
    expect(await verifyCertificateChain([leaf], [rootPem], now)).toMatchObject({ valid: false, code: 'trusted_issuer.weak_algorithm', detail: expect.stringMatching(/1024-bit RSA key/) });
  });

  it('refuses a leaf key on a curve other than P-256/P-384/P-521 (secp256k1)', async () => {
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
    const spki = publicKey.export({ type: 'spki', format: 'der' });
    const { rootPem, leaf } = await leafWithKey(spki.buffer.slice(spki.byteOffset, spki.byteOffset + spki.byteLength) as ArrayBuffer);
    expect(await verifyCertificateChain([leaf], [rootPem], now)).toMatchObject({ valid: false, code: 'trusted_issuer.weak_algorithm', detail: expect.stringMatching(/secp256k1/) });
  });

  it('refuses a chain whose trust anchor has an RSA-1024 key', async () => {
    const rootKeys = await rsaKeys(1024, 'SHA-256');
    const signingAlgorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
    const root = await X509CertificateGenerator.createSelfSigned({ name: 'CN=Small RSA Root', keys: rootKeys, signingAlgorithm, extensions: caExtensions(), ...validity });
    const leafKeys = await p256Keys();
    const leaf = await X509CertificateGenerator.create({ subject: 'CN=Leaf', issuer: root.subject, publicKey: leafKeys.publicKey, signingKey: rootKeys.privateKey, signingAlgorithm, extensions: leafExtensions(), ...validity });
    expect(await verifyCertificateChain([b64(leaf)], [root.toString('pem')], now)).toMatchObject({ valid: false, code: 'trusted_issuer.weak_algorithm', detail: expect.stringMatching(/trust anchor has a 1024-bit RSA key/) });
  });

  it('does not judge a configured anchor by its own self-signature (SHA-1 self-signed RSA-2048 root)', async () => {
    const rootKeys = await rsaKeys(2048, 'SHA-1');
    const root = await X509CertificateGenerator.createSelfSigned({ name: 'CN=Old Root', keys: rootKeys, signingAlgorithm: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-1' }, extensions: caExtensions(), ...validity });
    // The path below it is signed with SHA-256 using a separate RSA-2048 key object (same key, SHA-256 usage).
    const sha256Key = await webcrypto.subtle.importKey('pkcs8', await webcrypto.subtle.exportKey('pkcs8', rootKeys.privateKey), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign']);
    const leafKeys = await p256Keys();
    const leaf = await X509CertificateGenerator.create({ subject: 'CN=Leaf', issuer: root.subject, publicKey: leafKeys.publicKey, signingKey: sha256Key, signingAlgorithm: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, extensions: leafExtensions(), ...validity });
    expect(await verifyCertificateChain([b64(leaf)], [root.toString('pem')], now)).toMatchObject({ valid: true });
  });
});

describe('RSA keys whose verification is expensive', () => {
  const withKey = (publicKey: ReturnType<typeof generateKeyPairSync>['publicKey']) => ({ node: { publicKey } }) as unknown as ParsedCertificate;

  it('refuses an RSA key with a public exponent above 65537 (large-exponent verification cost)', () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x7fffffff });
    expect(weakKeyProblem(withKey(publicKey), 'the leaf certificate')).toMatch(/public exponent/);
  });

  it('accepts the usual exponent 65537', () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    expect(weakKeyProblem(withKey(publicKey), 'the leaf certificate')).toBeUndefined();
  });
});
