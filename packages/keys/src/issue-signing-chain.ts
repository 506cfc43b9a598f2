import { createECDH, createPrivateKey, webcrypto } from 'node:crypto';
import { freshP256Numbers } from './p256-key-numbers.js';

/**
 * Loaded on first use so that importing this package does not install the Reflect polyfill or touch
 * @peculiar/x509's global crypto provider unless a certificate is actually issued.
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

export interface SigningChainOptions {
  /** dNSName of the leaf's subjectAltName (the `x509_san_dns` client id). Default `localhost`. */
  dnsName?: string;
  /** Common name of the leaf. Default `vp-authorizer verifier (<dnsName>)`. */
  commonName?: string;
  /** Common name of the root CA. Default `vp-authorizer root CA`. */
  rootCommonName?: string;
  /** Validity of the leaf in days, from one day ago. Default 365. */
  leafDays?: number;
  /** Validity of the root in days, from one day ago. Default 3650. */
  rootDays?: number;
  /**
   * Also make the leaf an mdoc reader certificate: extendedKeyUsage 1.0.18013.5.1.6 (ISO/IEC
   * 18013-5 reader authentication), so that it can sign the `readerAuth` of Annex C requests.
   */
  readerAuth?: boolean;
}

/** ISO/IEC 18013-5 extended key usage of an mdoc reader authentication certificate. */
export const MDOC_READER_AUTH_EKU = '1.0.18013.5.1.6';

/** A root CA and a request-signing leaf issued by it, each with its P-256 key. */
export interface SigningChain {
  root: { certificatePem: string; privateKeyPem: string };
  leaf: { certificatePem: string; privateKeyPem: string; privateKeyJwk: JsonWebKey };
}

interface P256Keys {
  keys: CryptoKeyPair;
  privateKeyJwk: JsonWebKey;
  privateKeyPem: string;
}

/** A fresh P-256 key (see freshP256Numbers), imported: every export below reads an imported key. */
async function freshP256(): Promise<P256Keys> {
  const { x, y, d } = freshP256Numbers(createECDH('prime256v1'));
  // The members WebCrypto's own export gave (key_ops, ext): jose imports such a JWK as exportable.
  const privateKeyJwk: JsonWebKey = { key_ops: ['sign'], ext: true, kty: 'EC', crv: 'P-256', x, y, d };
  const keys: CryptoKeyPair = {
    privateKey: await webcrypto.subtle.importKey('jwk', privateKeyJwk, EC_P256, true, ['sign']),
    publicKey: await webcrypto.subtle.importKey('jwk', { kty: 'EC', crv: 'P-256', x, y }, EC_P256, true, ['verify']),
  };
  const privateKeyPem = createPrivateKey({ key: privateKeyJwk as never, format: 'jwk' }).export({ type: 'pkcs8', format: 'pem' }) as string;
  return { keys, privateKeyJwk, privateKeyPem };
}

/**
 * Issue a two-level chain that meets HAIP 1.0's request-signing rules: an ES256 (P-256) leaf with
 * a dNSName subjectAltName, keyUsage digitalSignature (critical), basicConstraints cA=false,
 * signed by a self-signed root CA (basicConstraints cA=true, pathLen 0; keyUsage keyCertSign and
 * cRLSign). The leaf is not self-signed, and the chain a request carries is the leaf alone.
 * With `readerAuth` the leaf also carries the mdoc reader extended key usage.
 */
export async function issueSigningChain(options: SigningChainOptions = {}): Promise<SigningChain> {
  const x509 = await loadX509();
  const dnsName = options.dnsName ?? 'localhost';
  const notBefore = new Date(Date.now() - DAY_MS);
  const days = (n: number | undefined, fallback: number) => new Date(Date.now() + (n ?? fallback) * DAY_MS);

  const rootKey = await freshP256();
  const rootKeys = rootKey.keys;
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    name: [{ CN: [options.rootCommonName ?? 'vp-authorizer root CA'] }],
    keys: rootKeys,
    notBefore,
    notAfter: days(options.rootDays, 3650),
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(rootKeys.publicKey),
    ],
  });

  const leafKey = await freshP256();
  const leafKeys = leafKey.keys;
  const leaf = await x509.X509CertificateGenerator.create({
    subject: [{ CN: [options.commonName ?? `vp-authorizer verifier (${dnsName})`] }],
    issuer: root.subject,
    publicKey: leafKeys.publicKey,
    signingKey: rootKeys.privateKey,
    notBefore,
    notAfter: days(options.leafDays, 365),
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: dnsName }]),
      ...(options.readerAuth ? [new x509.ExtendedKeyUsageExtension([MDOC_READER_AUTH_EKU], false)] : []),
      await x509.SubjectKeyIdentifierExtension.create(leafKeys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(rootKeys.publicKey),
    ],
  });

  return {
    root: { certificatePem: root.toString('pem'), privateKeyPem: rootKey.privateKeyPem },
    leaf: { certificatePem: leaf.toString('pem'), privateKeyPem: leafKey.privateKeyPem, privateKeyJwk: leafKey.privateKeyJwk },
  };
}
