// An access certificate naming its organisation (organizationIdentifier, 2.5.4.97) under a test
// access CA, and a registrar that signs registration certificates (ETSI TS 119 475, JWT form).
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { SignJWT } from 'jose';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);
const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;
const DAY = 86_400_000;

async function ca(name: string) {
  const keys = (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name,
    keys,
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 365 * DAY),
    signingAlgorithm: SIGNING,
    extensions: [new x509.BasicConstraintsExtension(true, 0, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true)],
  });
  return { keys, cert };
}

async function leaf(issuer: Awaited<ReturnType<typeof ca>>, subject: x509.JsonName, dnsName?: string) {
  const keys = (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.create({
    subject,
    issuer: issuer.cert.subject,
    publicKey: keys.publicKey,
    signingKey: issuer.keys.privateKey,
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 90 * DAY),
    signingAlgorithm: SIGNING,
    serialNumber: Date.now().toString(16),
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      ...(dnsName ? [new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: dnsName }])] : []),
    ],
  });
  return { keys, cert };
}

/** An access certificate (WRPAC-shaped) for organisation `orgId`, with its private key as a JWK and its CA. */
export async function accessCertificate(orgId: string) {
  const root = await ca('CN=Test access CA');
  const { keys, cert } = await leaf(root, [{ CN: ['rp.example'] }, { O: ['Example RP'] }, { '2.5.4.97': [orgId] }], 'rp.example');
  return {
    signing: { privateKey: (await webcrypto.subtle.exportKey('jwk', keys.privateKey)) as JsonWebKey, certificateChain: [cert.toString('pem')], trustAnchor: root.cert.toString('pem') },
    leafPem: cert.toString('pem'),
  };
}

/** A registrar whose `issue(claims, header?)` answers a registration certificate JWT. */
export async function registrar() {
  const root = await ca('CN=Test registrar CA');
  const signer = await leaf(root, [{ CN: ['Test registrar'] }]);
  const x5c = [signer.cert.toString('base64'), root.cert.toString('base64')];
  return {
    x5c,
    issue: (claims: Record<string, unknown>, header: Record<string, unknown> = {}) => {
      const jwt = new SignJWT(claims as never).setProtectedHeader({ alg: 'ES256', typ: 'rc-wrp+jwt', x5c, ...header }).setIssuedAt();
      return (claims.exp === undefined ? jwt.setExpirationTime('30d') : jwt).sign(signer.keys.privateKey);
    },
  };
}
