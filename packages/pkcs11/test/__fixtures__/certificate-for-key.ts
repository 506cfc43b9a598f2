// A root CA (in memory) issuing a HAIP-shaped leaf certificate for a public key that lives on a token.
import 'reflect-metadata';
import { webcrypto, type KeyObject } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);
const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;

/** `readerAuth`: the leaf also carries the mdoc reader authentication EKU (ISO/IEC 18013-5, 1.0.18013.5.1.6). */
export async function certificateForKey(publicKey: KeyObject, dnsName = 'rp.example', options: { readerAuth?: boolean } = {}): Promise<{ leafPem: string; rootPem: string }> {
  const rootKeys = (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as CryptoKeyPair;
  const notBefore = new Date(Date.now() - 86_400_000);
  const notAfter = new Date(Date.now() + 30 * 86_400_000);
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    name: 'CN=Test access CA',
    keys: rootKeys,
    notBefore,
    notAfter,
    signingAlgorithm: SIGNING,
    extensions: [new x509.BasicConstraintsExtension(true, 0, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true)],
  });
  const leafPublic = await webcrypto.subtle.importKey('spki', publicKey.export({ format: 'der', type: 'spki' }), EC, true, ['verify']);
  const leaf = await x509.X509CertificateGenerator.create({
    subject: `CN=${dnsName}, O=Example RP`,
    issuer: root.subject,
    publicKey: leafPublic,
    signingKey: rootKeys.privateKey,
    notBefore,
    notAfter,
    signingAlgorithm: SIGNING,
    serialNumber: '0a1b2c',
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: dnsName }]),
      ...(options.readerAuth ? [new x509.ExtendedKeyUsageExtension(['1.0.18013.5.1.6'])] : []),
    ],
  });
  return { leafPem: leaf.toString('pem'), rootPem: root.toString('pem') };
}
