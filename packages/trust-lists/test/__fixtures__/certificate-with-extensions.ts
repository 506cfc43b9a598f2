import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { generateTestKeys, type TestKeys } from '@vp-authorizer/testing';

const DAY = 86_400_000;

/**
 * A certificate for `subject`, signed by `issuerKeys` under `issuerName`, valid from a day ago for
 * thirty days, carrying exactly `extensions` (none: no key identifiers). Its own key is `keys`, or
 * a fresh one.
 */
export async function certificateWithExtensions(subject: string, issuerName: string, issuerKeys: TestKeys, extensions: x509.Extension[] = [], keys?: TestKeys): Promise<Uint8Array> {
  const own = keys ?? (await generateTestKeys());
  const cert = await x509.X509CertificateGenerator.create({
    subject,
    issuer: issuerName,
    serialNumber: '0102',
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 30 * DAY),
    publicKey: own.keys.publicKey,
    signingKey: issuerKeys.keys.privateKey,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    extensions,
  });
  return new Uint8Array(cert.rawData);
}
