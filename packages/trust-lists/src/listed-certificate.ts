import { createHash, X509Certificate } from 'node:crypto';
import { keyIdentifiers } from './key-identifiers.js';
import { TrustListError } from './trust-list-error.js';

/** A certificate read from a list: DER, PEM, and what an anchor index needs. */
export interface ListedCertificate {
  der: Uint8Array;
  pem: string;
  /** The subject name as OpenSSL renders it: the anchor index's fallback key (a child names it as its issuer). */
  subject: string;
  /** SHA-256 of the DER, lower-case hex (identity across lists and sources). */
  sha256: string;
  /** The subjectKeyIdentifier, lower-case hex: the key of the anchor index (a child names it as its authority key identifier). */
  subjectKeyId?: string;
  /** Epoch ms. */
  notBefore: number;
  notAfter: number;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Reads one certificate with node:crypto (OpenSSL). A list of lists carries a few hundred
 * certificates; OpenSSL parses one in well under a millisecond, where an ASN.1 parser written in
 * JavaScript took several here.
 */
export function listedCertificate(input: Uint8Array | string, where: string): ListedCertificate {
  let der: Buffer;
  if (typeof input === 'string') {
    const compact = input.replace(/\s+/g, '');
    if (compact.length === 0 || !BASE64.test(compact)) throw new TrustListError('malformed', `${where}: the certificate is not base64 DER`);
    der = Buffer.from(compact, 'base64');
  } else {
    der = Buffer.from(input);
  }
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(der);
  } catch {
    throw new TrustListError('malformed', `${where}: the certificate cannot be parsed`);
  }
  const { subjectKeyId } = keyIdentifiers(der);
  return {
    der: new Uint8Array(der),
    pem: cert.toString(),
    subject: cert.subject,
    sha256: createHash('sha256').update(der).digest('hex'),
    ...(subjectKeyId ? { subjectKeyId } : {}),
    notBefore: Date.parse(cert.validFrom),
    notAfter: Date.parse(cert.validTo),
  };
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;

/** Every certificate of a PEM text (list-signer configuration); throws TypeError naming `where`. */
export function certificatesFromPem(pem: string, where: string): ListedCertificate[] {
  const blocks = [...pem.matchAll(PEM_BLOCK)].map((m) => m[1] ?? '');
  if (blocks.length === 0) throw new TypeError(`${where}: no PEM CERTIFICATE block found`);
  return blocks.map((body, i) => {
    try {
      return listedCertificate(body, `${where} certificate ${i}`);
    } catch (error) {
      throw new TypeError((error as Error).message);
    }
  });
}
