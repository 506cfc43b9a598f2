import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import {
  AuthorityKeyIdentifierExtension,
  BasicConstraintsExtension,
  KeyUsageFlags,
  KeyUsagesExtension,
  SubjectKeyIdentifierExtension,
  X509CertificateGenerator,
  type Extension,
  type X509Certificate,
} from '@peculiar/x509';
import { exportJWK, type JWK } from 'jose';

const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;
const DAY = 86_400_000;

export interface TestKeys {
  keys: CryptoKeyPair;
  publicJwk: JWK;
  privateJwk: JWK;
}

/** An ECDSA key pair, P-256 unless `namedCurve` says otherwise (P-384 for ES384 tests). */
export async function generateKeys(namedCurve: 'P-256' | 'P-384' = EC.namedCurve): Promise<TestKeys> {
  const keys = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve }, true, ['sign', 'verify'])) as CryptoKeyPair;
  return { keys, publicJwk: await exportJWK(keys.publicKey), privateJwk: await exportJWK(keys.privateKey) };
}

export interface IssuedCertificate extends TestKeys {
  cert: X509Certificate;
  /** Standard base64 DER, as in an x5c header. */
  x5c: string;
  der: Uint8Array;
  pem: string;
}

export interface TestCa extends IssuedCertificate {
  /** Issues a certificate signed by this CA. */
  issue(options: IssueOptions): Promise<TestCa>;
}

export interface IssueOptions {
  subject: string;
  ca?: boolean;
  notBefore?: Date;
  notAfter?: Date;
  keys?: TestKeys;
  /** Overrides the default key usage (keyCertSign|cRLSign for CAs, digitalSignature otherwise); null omits it. */
  keyUsage?: KeyUsageFlags | null;
  /** Extra extensions (SAN, EKU, nameConstraints, …). */
  extensions?: Extension[];
}

function toIssued(cert: X509Certificate, keys: TestKeys): IssuedCertificate {
  const der = new Uint8Array(cert.rawData);
  return { ...keys, cert, der, x5c: Buffer.from(der).toString('base64'), pem: cert.toString('pem') };
}

/** Lets any issued certificate sign others (to build invalid chains in tests). */
export function withIssue(ca: IssuedCertificate): TestCa {
  return {
    ...ca,
    async issue({ subject, ca: isCa = false, notBefore = new Date(Date.now() - DAY), notAfter = new Date(Date.now() + 365 * DAY), keys, keyUsage, extensions = [] }) {
      const usage = keyUsage === undefined ? (isCa ? KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign : KeyUsageFlags.digitalSignature) : keyUsage;
      const subjectKeys = keys ?? (await generateKeys());
      const cert = await X509CertificateGenerator.create({
        subject,
        issuer: ca.cert.subject,
        notBefore,
        notAfter,
        publicKey: subjectKeys.keys.publicKey,
        signingKey: ca.keys.privateKey,
        signingAlgorithm: SIGNING,
        extensions: [
          new BasicConstraintsExtension(isCa, undefined, true),
          ...(usage === null ? [] : [new KeyUsagesExtension(usage, true)]),
          await SubjectKeyIdentifierExtension.create(subjectKeys.keys.publicKey),
          await AuthorityKeyIdentifierExtension.create(ca.keys.publicKey),
          ...extensions,
        ],
      });
      return withIssue(toIssued(cert, subjectKeys));
    },
  };
}

/** A self-signed test root CA (P-256, basicConstraints cA, keyCertSign). */
export async function createTestCa(subject = 'CN=Test Root CA,O=vp-authorizer tests', validity?: { notBefore?: Date; notAfter?: Date }): Promise<TestCa> {
  const keys = await generateKeys();
  const cert = await X509CertificateGenerator.createSelfSigned({
    name: subject,
    keys: keys.keys,
    notBefore: validity?.notBefore ?? new Date(Date.now() - DAY),
    notAfter: validity?.notAfter ?? new Date(Date.now() + 3650 * DAY),
    signingAlgorithm: SIGNING,
    extensions: [
      new BasicConstraintsExtension(true, 1, true),
      new KeyUsagesExtension(KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign, true),
      await SubjectKeyIdentifierExtension.create(keys.keys.publicKey),
    ],
  });
  return withIssue(toIssued(cert, keys));
}

/** A self-signed end-entity certificate (not a CA) that can be pinned as a trust anchor itself. */
export async function createSelfSignedLeaf(subject = 'CN=Pinned Issuer'): Promise<IssuedCertificate> {
  const keys = await generateKeys();
  const cert = await X509CertificateGenerator.createSelfSigned({
    name: subject,
    keys: keys.keys,
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 365 * DAY),
    signingAlgorithm: SIGNING,
    extensions: [new BasicConstraintsExtension(false, undefined, true), new KeyUsagesExtension(KeyUsageFlags.digitalSignature, true)],
  });
  return toIssued(cert, keys);
}
