import 'reflect-metadata';
import { generateKeyPairSync, webcrypto, type KeyObject } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

/** A list signer: an RSA key (xml-crypto signs RSA) or a P-256 key (JWS), with its self-signed certificate. */
export interface ListSigner {
  privateKey: KeyObject;
  privatePem: string;
  pem: string;
  /** Standard base64 DER, as lists and x5c carry certificates. */
  base64: string;
  der: Uint8Array;
}

export async function createListSigner(name: string, type: 'rsa' | 'ec' = 'rsa', validity: { notBefore?: Date; notAfter?: Date } = {}): Promise<ListSigner> {
  const pair = type === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const algorithm = type === 'rsa' ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } : { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = {
    privateKey: await webcrypto.subtle.importKey('pkcs8', pair.privateKey.export({ type: 'pkcs8', format: 'der' }), algorithm, false, ['sign']),
    publicKey: await webcrypto.subtle.importKey('spki', pair.publicKey.export({ type: 'spki', format: 'der' }), algorithm, true, ['verify']),
  };
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=${name},O=vp-authorizer tests,C=UT`,
    serialNumber: Date.now().toString(16) + Math.floor(Math.random() * 1e6).toString(16),
    notBefore: validity.notBefore ?? new Date(Date.now() - 86_400_000),
    notAfter: validity.notAfter ?? new Date(Date.now() + 3 * 365 * 86_400_000),
    keys,
    signingAlgorithm: algorithm,
    extensions: [new x509.BasicConstraintsExtension(true, undefined, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.digitalSignature, true)],
  });
  const der = new Uint8Array(cert.rawData);
  return { privateKey: pair.privateKey, privatePem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, pem: cert.toString('pem'), base64: Buffer.from(der).toString('base64'), der };
}
