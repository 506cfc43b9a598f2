import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY = 86_400_000;

export interface TestCa {
  rootPem: string;
  /** Leaf first, base64 DER (x5c). */
  x5c: string[];
  leafDer: Uint8Array;
  /** base64url AKI keyIdentifier of the leaf (= the root's SKI). */
  leafAki: string;
}

/** A throwaway root CA and a leaf issued by it (test-only). */
export async function createTestCa(name: string): Promise<TestCa> {
  const rootKeys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
  const leafKeys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
  const notBefore = new Date(Date.now() - DAY);
  const notAfter = new Date(Date.now() + 30 * DAY);
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=${name} root`,
    notBefore,
    notAfter,
    keys: rootKeys,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(true, 1, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(rootKeys.publicKey),
    ],
  });
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: '02',
    subject: `CN=${name} issuer`,
    issuer: root.subject,
    notBefore,
    notAfter,
    publicKey: leafKeys.publicKey,
    signingKey: rootKeys.privateKey,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(false),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      await x509.AuthorityKeyIdentifierExtension.create(root, false),
    ],
  });
  const leafDer = new Uint8Array(leaf.rawData);
  const aki = leaf.getExtension(x509.AuthorityKeyIdentifierExtension)?.keyId;
  if (!aki) throw new Error('test CA: leaf has no AKI');
  return { rootPem: root.toString('pem'), x5c: [Buffer.from(leafDer).toString('base64')], leafDer, leafAki: Buffer.from(aki, 'hex').toString('base64url') };
}
