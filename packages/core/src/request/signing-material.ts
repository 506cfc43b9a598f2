import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { importJWK } from 'jose';
import { ConfigError } from '../errors/config-error.js';
import { certificateDer, x509Hash } from '../crypto/x509-hash.js';
import type { SigningInput } from '../config/signing-input.js';

export type { SigningInput } from '../config/signing-input.js';

/** Signing material ready for use; derived once from a SigningInput. */
export interface SigningMaterial {
  alg: 'ES256';
  privateKey: CryptoKey;
  /** Standard base64 DER, leaf first, as put in the `x5c` header. */
  x5c: string[];
  leafDer: Uint8Array;
  /** base64url SHA-256 of the leaf DER (the `x509_hash` client id value). */
  x509Hash: string;
  /** dNSName SANs of the leaf, in certificate order. */
  dnsNames: string[];
  leafSelfSigned: boolean;
  /** The configured chain contains the trust anchor (or ends in a self-signed root). */
  chainIncludesAnchor: boolean;
  trustAnchorPem?: string;
}

interface Parsed {
  key: KeyObject;
  chain: X509Certificate[];
  anchor?: X509Certificate;
}

type Issue = { path: string; message: string };

const P256 = 'prime256v1';

function join(base: string, key: string | number): string {
  return base === '' ? String(key) : `${base}.${key}`;
}

function parseCertificate(value: unknown, path: string, issues: Issue[]): X509Certificate | undefined {
  if (typeof value !== 'string' || value.trim() === '') {
    issues.push({ path, message: 'must be a PEM certificate or base64 DER string' });
    return undefined;
  }
  try {
    return new X509Certificate(Buffer.from(certificateDer(value)));
  } catch {
    issues.push({ path, message: 'is not a valid X.509 certificate (expected PEM or base64 DER)' });
    return undefined;
  }
}

function parsePrivateKey(value: unknown, path: string, issues: Issue[]): KeyObject | undefined {
  let key: KeyObject;
  try {
    if (typeof value === 'string') key = createPrivateKey(value);
    else if (value !== null && typeof value === 'object') key = createPrivateKey({ key: value as import('node:crypto').JsonWebKey, format: 'jwk' });
    else {
      issues.push({ path, message: 'must be a P-256 private JWK or a PKCS#8 PEM string' });
      return undefined;
    }
  } catch {
    // Never echo the key material: only say what was wrong with its form.
    issues.push({ path, message: 'could not be read as a private key (expected a P-256 JWK with "d" or a PKCS#8 PEM)' });
    return undefined;
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== P256) {
    issues.push({ path, message: 'must be an EC P-256 key (ES256)' });
    return undefined;
  }
  return key;
}

const isSelfSigned = (cert: X509Certificate): boolean => cert.checkIssued(cert) && cert.verify(cert.publicKey);
const issuedBy = (cert: X509Certificate, issuer: X509Certificate): boolean => cert.checkIssued(issuer) && cert.verify(issuer.publicKey);

function parse(input: unknown, path: string): { input: SigningInput; parsed: Parsed } {
  const issues: Issue[] = [];
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new ConfigError('Invalid signing material:', [{ path, message: 'must be an object { privateKey, certificateChain, trustAnchor? }' }]);
  }
  const raw = input as Record<string, unknown>;
  const key = parsePrivateKey(raw.privateKey, join(path, 'privateKey'), issues);

  const chain: X509Certificate[] = [];
  const chainPath = join(path, 'certificateChain');
  if (!Array.isArray(raw.certificateChain) || raw.certificateChain.length === 0) {
    issues.push({ path: chainPath, message: 'must list at least the leaf certificate (leaf first, without the trust anchor)' });
  } else {
    raw.certificateChain.forEach((c, i) => {
      const cert = parseCertificate(c, join(chainPath, i), issues);
      if (cert) chain.push(cert);
    });
  }
  let anchor: X509Certificate | undefined;
  if (raw.trustAnchor !== undefined) anchor = parseCertificate(raw.trustAnchor, join(path, 'trustAnchor'), issues);

  const complete = Array.isArray(raw.certificateChain) && chain.length === raw.certificateChain.length;
  const leaf = chain[0];
  if (leaf && complete) {
    const leafKey = leaf.publicKey;
    if (leafKey.asymmetricKeyType !== 'ec' || leafKey.asymmetricKeyDetails?.namedCurve !== P256) {
      issues.push({ path: join(chainPath, 0), message: 'the leaf certificate must carry an EC P-256 public key' });
    } else if (key && !leaf.checkPrivateKey(key)) {
      issues.push({ path: join(path, 'privateKey'), message: 'does not match the public key of the leaf certificate (certificateChain[0])' });
    }
    const validTo = Date.parse(leaf.validTo);
    if (Number.isFinite(validTo) && validTo < Date.now()) issues.push({ path: join(chainPath, 0), message: `the leaf certificate expired on ${new Date(validTo).toISOString()}` });
    for (let i = 0; i + 1 < chain.length; i++) {
      if (!issuedBy(chain[i]!, chain[i + 1]!)) issues.push({ path: join(chainPath, i), message: `is not issued (signed) by certificateChain[${i + 1}]; order the chain leaf first` });
    }
    const last = chain[chain.length - 1]!;
    if (anchor && last.raw.compare(anchor.raw) !== 0 && !issuedBy(last, anchor)) {
      issues.push({ path: join(path, 'trustAnchor'), message: 'did not issue the last certificate of certificateChain' });
    }
  }
  if (issues.length > 0) throw new ConfigError('Invalid signing material:', issues);
  return { input: raw as unknown as SigningInput, parsed: { key: key!, chain, ...(anchor ? { anchor } : {}) } };
}

/**
 * Validate signing input synchronously (at construction): key form and curve, every certificate
 * parses, the key matches the leaf, the chain is ordered leaf first. Throws a ConfigError listing
 * each issue; key material is never included in messages.
 */
export function checkSigningInput(input: unknown, path = 'signing'): SigningInput {
  return parse(input, path).input;
}

function dnsNamesOf(cert: X509Certificate): string[] {
  const san = cert.subjectAltName;
  if (!san) return [];
  const names: string[] = [];
  // Node renders SANs as "DNS:a, DNS:b"; values with special characters are JSON-quoted.
  for (const m of san.matchAll(/(?:^|,\s*)DNS:("(?:[^"\\]|\\.)*"|[^,]*)/g)) {
    const value = m[1]!.startsWith('"') ? (JSON.parse(m[1]!) as string) : m[1]!.trim();
    if (value) names.push(value);
  }
  return names;
}

/** Turn checked signing input into keys and derived values for signing request objects. */
export async function loadSigningMaterial(input: SigningInput): Promise<SigningMaterial> {
  const { parsed } = parse(input, 'signing');
  const { key, chain, anchor } = parsed;
  const leaf = chain[0]!;
  const jwk = key.export({ format: 'jwk' });
  const privateKey = (await importJWK({ ...jwk, alg: 'ES256' }, 'ES256', { extractable: false })) as CryptoKey;
  const leafDer = new Uint8Array(leaf.raw);
  const last = chain[chain.length - 1]!;
  const chainIncludesAnchor =
    (anchor !== undefined && chain.some((c) => c.raw.compare(anchor.raw) === 0)) || (chain.length > 1 && isSelfSigned(last));
  return {
    alg: 'ES256',
    privateKey,
    x5c: chain.map((c) => c.raw.toString('base64')),
    leafDer,
    x509Hash: x509Hash(leafDer),
    dnsNames: dnsNamesOf(leaf),
    leafSelfSigned: isSelfSigned(leaf),
    chainIncludesAnchor,
    ...(anchor ? { trustAnchorPem: anchor.toString() } : {}),
  };
}

/** The client_id for a prefix: `x509_hash:<hash>` or `x509_san_dns:<first dNSName of the leaf>`. */
export function clientIdFor(prefix: 'x509_hash' | 'x509_san_dns', m: SigningMaterial): string {
  if (prefix === 'x509_hash') return `x509_hash:${m.x509Hash}`;
  const dns = m.dnsNames[0];
  if (!dns) throw new ConfigError('Invalid signing material:', [{ path: 'signing.certificateChain.0', message: 'the x509_san_dns client id prefix needs a leaf certificate with a dNSName subjectAltName' }]);
  return `x509_san_dns:${dns}`;
}
