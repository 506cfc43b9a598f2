import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

// @peculiar/x509 needs a WebCrypto provider; Node's own is enough.
x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;

/** A leaf certificate with its private key, issued by a {@link TestCa}. */
export interface TestLeaf {
  certificatePem: string;
  /** Standard base64 DER, as it goes into a JOSE `x5c` array. */
  certificateBase64: string;
  certificateDer: Uint8Array;
  privateJwk: JsonWebKey;
  publicJwk: JsonWebKey;
}

export interface TestCa {
  rootCertificatePem: string;
  rootCertificateDer: Uint8Array;
  /** Issues a leaf (not self-signed, not a CA) signed by the root. */
  issueLeaf(options: { commonName: string; dnsName?: string }): Promise<TestLeaf>;
}

/**
 * A self-signed root CA that lives only in memory. Two-level chains (root → leaf) meet the HAIP
 * rules: the leaf is not self-signed and the root never appears in `x5c`.
 */
export async function createTestCa(options: { commonName?: string } = {}): Promise<TestCa> {
  const notBefore = new Date(Date.now() - DAY_MS);
  const notAfter = new Date(Date.now() + 365 * DAY_MS);
  const rootKeys = (await webcrypto.subtle.generateKey(EC_P256, true, ['sign', 'verify'])) as CryptoKeyPair;
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    name: [{ CN: [options.commonName ?? 'vp-authorizer test issuer root CA'] }, { C: ['UT'] }],
    keys: rootKeys,
    serialNumber: randomSerial(),
    notBefore,
    notAfter,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(rootKeys.publicKey),
    ],
  });

  return {
    rootCertificatePem: root.toString('pem'),
    rootCertificateDer: new Uint8Array(root.rawData),
    async issueLeaf({ commonName, dnsName }) {
      const leafKeys = (await webcrypto.subtle.generateKey(EC_P256, true, ['sign', 'verify'])) as CryptoKeyPair;
      const leaf = await x509.X509CertificateGenerator.create({
        // mdoc verifiers read the issuing country from the leaf; give them one.
        subject: [{ CN: [commonName] }, { C: ['UT'] }],
        issuer: root.subject,
        publicKey: leafKeys.publicKey,
        signingKey: rootKeys.privateKey,
        serialNumber: randomSerial(),
        notBefore,
        notAfter,
        signingAlgorithm: SIGNING,
        extensions: [
          new x509.BasicConstraintsExtension(false, undefined, true),
          new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
          ...(dnsName ? [new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: dnsName }])] : []),
          await x509.SubjectKeyIdentifierExtension.create(leafKeys.publicKey),
          await x509.AuthorityKeyIdentifierExtension.create(rootKeys.publicKey),
        ],
      });
      const privateJwk = (await webcrypto.subtle.exportKey('jwk', leafKeys.privateKey)) as JsonWebKey;
      const { kty, crv, x, y, d } = privateJwk;
      const der = new Uint8Array(leaf.rawData);
      return {
        certificatePem: leaf.toString('pem'),
        certificateBase64: Buffer.from(der).toString('base64'),
        certificateDer: der,
        privateJwk: { kty, crv, x, y, d },
        publicJwk: { kty, crv, x, y },
      };
    },
  };
}

// Positive serials (high bit cleared) from the CSPRNG, as RFC 5280 wants.
function randomSerial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = bytes[0]! & 0x7f;
  return Buffer.from(bytes).toString('hex');
}
