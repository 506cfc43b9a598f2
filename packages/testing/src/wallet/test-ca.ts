import 'reflect-metadata';
import { createPrivateKey, createPublicKey, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { JWK } from 'jose';
import { freshEcJwks } from './holder-key.js';

// @peculiar/x509 needs a WebCrypto provider; Node's own is enough.
x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;

/** An ECDSA key pair with both halves as JWK (`kty`, `crv`, `x`, `y`[, `d`] only). */
export interface TestKeys {
  keys: CryptoKeyPair;
  publicJwk: JWK;
  privateJwk: JWK;
}

/** An ECDSA key pair, P-256 unless `namedCurve` says otherwise (P-384 for ES384 tests). */
export async function generateTestKeys(namedCurve: 'P-256' | 'P-384' = 'P-256'): Promise<TestKeys> {
  // Imported, never a generated key exported as JWK (see freshEcJwks).
  const { publicJwk, privateJwk } = freshEcJwks(namedCurve) as { publicJwk: JWK; privateJwk: JWK };
  const algorithm = { name: 'ECDSA', namedCurve };
  const keys: CryptoKeyPair = {
    publicKey: await webcrypto.subtle.importKey('jwk', publicJwk as JsonWebKey, algorithm, true, ['verify']),
    privateKey: await webcrypto.subtle.importKey('jwk', privateJwk as JsonWebKey, algorithm, true, ['sign']),
  };
  return { keys, publicJwk, privateJwk };
}

/** A certificate with its key pair, in every encoding tests hand to verifiers. */
export interface IssuedCertificate extends TestKeys {
  cert: x509.X509Certificate;
  /** Standard base64 DER, as it goes into a JOSE `x5c` array. */
  x5c: string;
  der: Uint8Array;
  pem: string;
}

/** A certificate that can sign others: a root from {@link createTestCa}, or anything it issued. */
export interface TestCa extends IssuedCertificate {
  issue(options: IssueOptions): Promise<TestCa>;
}

export interface IssueOptions {
  /** Distinguished name, e.g. `CN=Issuer,C=UT` (mdoc verifiers read the country from the leaf). */
  subject: string;
  /** Issue a CA certificate (basicConstraints cA) instead of an end-entity one. */
  ca?: boolean;
  /** basicConstraints pathLenConstraint of a CA certificate. */
  pathLength?: number;
  /** Adds a subjectAltName dNSName. */
  dnsName?: string;
  notBefore?: Date;
  notAfter?: Date;
  keys?: TestKeys;
  /** Overrides the default key usage (keyCertSign|cRLSign for CAs, digitalSignature otherwise); null omits it. */
  keyUsage?: x509.KeyUsageFlags | null;
  /** Extra extensions (EKU, nameConstraints, …). */
  extensions?: x509.Extension[];
}

function toIssued(cert: x509.X509Certificate, keys: TestKeys): IssuedCertificate {
  const der = new Uint8Array(cert.rawData);
  return { ...keys, cert, der, x5c: Buffer.from(der).toString('base64'), pem: cert.toString('pem') };
}

/**
 * Lets any issued certificate sign others. Chains stay correct by default (SKI/AKI, the issuer's
 * subject); tests build broken ones by issuing from a leaf or overriding the key usage.
 */
export function withIssue(issuer: IssuedCertificate): TestCa {
  return {
    ...issuer,
    async issue(options) {
      const isCa = options.ca ?? false;
      const usage = options.keyUsage === undefined ? (isCa ? x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign : x509.KeyUsageFlags.digitalSignature) : options.keyUsage;
      const subjectKeys = options.keys ?? (await generateTestKeys());
      const cert = await x509.X509CertificateGenerator.create({
        subject: options.subject,
        issuer: issuer.cert.subject,
        serialNumber: randomSerial(),
        notBefore: options.notBefore ?? new Date(Date.now() - DAY_MS),
        notAfter: options.notAfter ?? new Date(Date.now() + 365 * DAY_MS),
        publicKey: subjectKeys.keys.publicKey,
        signingKey: issuer.keys.privateKey,
        signingAlgorithm: SIGNING,
        extensions: [
          new x509.BasicConstraintsExtension(isCa, isCa ? options.pathLength : undefined, true),
          ...(usage === null ? [] : [new x509.KeyUsagesExtension(usage, true)]),
          ...(options.dnsName ? [new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: options.dnsName }])] : []),
          await x509.SubjectKeyIdentifierExtension.create(subjectKeys.keys.publicKey),
          await x509.AuthorityKeyIdentifierExtension.create(issuer.keys.publicKey),
          ...(options.extensions ?? []),
        ],
      });
      return withIssue(toIssued(cert, subjectKeys));
    },
  };
}

export interface TestCaOptions {
  notBefore?: Date;
  notAfter?: Date;
  /** basicConstraints pathLenConstraint; default 1 (one intermediate allowed). */
  pathLength?: number;
}

/**
 * A self-signed root CA (P-256, basicConstraints cA, keyCertSign) that lives only in memory.
 * Root → leaf chains meet the HAIP rules: the leaf is not self-signed and the root never appears
 * in `x5c`.
 */
export async function createTestCa(subject = 'CN=Test Root CA,O=vp-authorizer tests', options: TestCaOptions = {}): Promise<TestCa> {
  const keys = await generateTestKeys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: subject,
    keys: keys.keys,
    serialNumber: randomSerial(),
    notBefore: options.notBefore ?? new Date(Date.now() - DAY_MS),
    notAfter: options.notAfter ?? new Date(Date.now() + 3650 * DAY_MS),
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(true, options.pathLength ?? 1, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.keys.publicKey),
    ],
  });
  return withIssue(toIssued(cert, keys));
}

/**
 * A CA loaded from its certificate and PKCS#8 private key (PEM), as {@link saveTestIssuer} wrote
 * them: it issues as a fresh {@link createTestCa} does, so one root can outlive the process.
 */
export async function testCaFromPem(certificatePem: string, privateKeyPem: string): Promise<TestCa> {
  const cert = new x509.X509Certificate(certificatePem);
  // An imported key exported as JWK (not a just-generated one: see freshEcJwks).
  const { kty, crv, x, y, d } = createPrivateKey(privateKeyPem).export({ format: 'jwk' });
  if (kty !== 'EC' || (crv !== 'P-256' && crv !== 'P-384')) throw new Error(`the CA key is ${kty} ${crv ?? ''}, not an EC P-256 or P-384 key`);
  const publicJwk = { kty, crv, x, y } as JWK;
  const privateJwk = { ...publicJwk, d } as JWK;
  const algorithm = { name: 'ECDSA', namedCurve: crv };
  const keys: CryptoKeyPair = {
    publicKey: await webcrypto.subtle.importKey('jwk', publicJwk as JsonWebKey, algorithm, true, ['verify']),
    privateKey: await webcrypto.subtle.importKey('jwk', privateJwk as JsonWebKey, algorithm, true, ['sign']),
  };
  const keySpki = createPublicKey(privateKeyPem).export({ type: 'spki', format: 'der' });
  if (!keySpki.equals(Buffer.from(cert.publicKey.rawData))) throw new Error('the CA key does not belong to the CA certificate');
  return withIssue(toIssued(cert, { keys, publicJwk, privateJwk }));
}

/**
 * A self-signed end-entity certificate (not a CA) that can be pinned as a trust anchor itself (a
 * credential issuer's). Not for signing HAIP request objects: HAIP refuses a self-signed
 * request-signing certificate (`haip.certificate_chain`); use a leaf of {@link createTestCa}.
 */
export async function createSelfSignedLeaf(subject = 'CN=Pinned Issuer'): Promise<IssuedCertificate> {
  const keys = await generateTestKeys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: subject,
    keys: keys.keys,
    serialNumber: randomSerial(),
    notBefore: new Date(Date.now() - DAY_MS),
    notAfter: new Date(Date.now() + 365 * DAY_MS),
    signingAlgorithm: SIGNING,
    extensions: [new x509.BasicConstraintsExtension(false, undefined, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true)],
  });
  return toIssued(cert, keys);
}

/** The keyIdentifier of a certificate's authorityKeyIdentifier, base64url (a DCQL `aki` value). */
export function authorityKeyIdentifier(certificate: IssuedCertificate): string {
  const keyId = certificate.cert.getExtension(x509.AuthorityKeyIdentifierExtension)?.keyId;
  if (!keyId) throw new Error('The certificate has no authorityKeyIdentifier keyIdentifier.');
  return Buffer.from(keyId, 'hex').toString('base64url');
}

// Positive serials (high bit cleared) from the CSPRNG, as RFC 5280 wants.
function randomSerial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = bytes[0]! & 0x7f;
  return Buffer.from(bytes).toString('hex');
}
