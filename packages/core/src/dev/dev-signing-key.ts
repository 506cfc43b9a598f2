import { webcrypto } from 'node:crypto';
import type { SigningInput } from '../request/signing-material.js';

/**
 * Loaded on first use so that importing the core does not install the Reflect polyfill or touch
 * @peculiar/x509's global crypto provider unless a dev key is actually generated.
 */
async function loadX509(): Promise<typeof import('@peculiar/x509')> {
  await import('reflect-metadata');
  const x509 = await import('@peculiar/x509');
  // @peculiar/x509 needs a WebCrypto provider; use Node's.
  x509.cryptoProvider.set(webcrypto as unknown as Crypto);
  return x509;
}

const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;

/**
 * A throwaway two-level chain for development and tests: a self-signed root CA and a leaf signed
 * by it. The leaf is not self-signed and the chain handed out excludes the root, so it meets the
 * HAIP certificate rules. Never use it in production: the keys live only in memory.
 */
export async function generateDevSigningKey(options: { commonName?: string; dnsName?: string } = {}): Promise<{
  signing: SigningInput;
  rootCertificatePem: string;
  leafCertificatePem: string;
}> {
  const x509 = await loadX509();
  const dnsName = options.dnsName ?? 'localhost';
  const commonName = options.commonName ?? `vp-authorizer dev verifier (${dnsName})`;
  const notBefore = new Date(Date.now() - DAY_MS);
  const notAfter = new Date(Date.now() + 365 * DAY_MS);

  const rootKeys = (await webcrypto.subtle.generateKey(EC_P256, true, ['sign', 'verify'])) as CryptoKeyPair;
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    name: [{ CN: ['vp-authorizer dev root CA'] }],
    keys: rootKeys,
    notBefore,
    notAfter,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(rootKeys.publicKey),
    ],
  });

  const leafKeys = (await webcrypto.subtle.generateKey(EC_P256, true, ['sign', 'verify'])) as CryptoKeyPair;
  const leaf = await x509.X509CertificateGenerator.create({
    subject: [{ CN: [commonName] }],
    issuer: root.subject,
    publicKey: leafKeys.publicKey,
    signingKey: rootKeys.privateKey,
    notBefore,
    notAfter,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: dnsName }]),
      await x509.SubjectKeyIdentifierExtension.create(leafKeys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(rootKeys.publicKey),
    ],
  });

  const privateKey = await webcrypto.subtle.exportKey('jwk', leafKeys.privateKey);
  const rootCertificatePem = root.toString('pem');
  const leafCertificatePem = leaf.toString('pem');
  return {
    signing: { privateKey: privateKey as JsonWebKey, certificateChain: [leafCertificatePem], trustAnchor: rootCertificatePem },
    rootCertificatePem,
    leafCertificatePem,
  };
}
