import 'reflect-metadata';
import { X509Certificate as NodeX509Certificate, type KeyObject } from 'node:crypto';
import { X509Certificate } from '@peculiar/x509';

/** One parsed certificate: DER bytes plus the two views we need (extensions / OpenSSL checks). */
export interface ParsedCertificate {
  der: Uint8Array;
  /** @peculiar/x509 view: extensions (basicConstraints pathLen, keyUsage, AKI/SKI). */
  cert: X509Certificate;
  /** Node (OpenSSL) view: name chaining (`checkIssued`) and signature verification. */
  node: NodeX509Certificate;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** DER bytes of DER input or of an x5c entry (standard base64 DER, RFC 7515 section 4.1.6). */
export function certificateDer(input: string | Uint8Array): Uint8Array<ArrayBuffer> {
  if (typeof input !== 'string') return new Uint8Array(input);
  const compact = input.replace(/\s+/g, '');
  if (compact.length === 0 || !BASE64.test(compact)) throw new TypeError('Certificate is not base64 DER');
  return new Uint8Array(Buffer.from(compact, 'base64'));
}

/** Parses DER bytes or an x5c entry (standard base64 DER, RFC 7515 section 4.1.6). */
export function parseCertificate(input: string | Uint8Array): ParsedCertificate {
  const der = certificateDer(input);
  const node = new NodeX509Certificate(Buffer.from(der));
  const cert = new X509Certificate(der);
  return { der, cert, node };
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;

/** Parses one PEM text that may hold several certificates; throws when it holds none or a bad one. */
export function parsePemCertificates(pem: string): ParsedCertificate[] {
  const blocks = [...pem.matchAll(PEM_BLOCK)].map((m) => m[1] ?? '');
  if (blocks.length === 0) throw new TypeError('No PEM CERTIFICATE block found');
  return blocks.map((body) => parseCertificate(body));
}

export const sameDer = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && Buffer.compare(a, b) === 0;

// Node builds a new KeyObject on every `publicKey` read; a certificate's key never changes.
const publicKeys = new WeakMap<ParsedCertificate, KeyObject>();

/** The certificate's public key as one KeyObject per parsed certificate (cached verdicts reuse it). */
export function publicKeyOf(c: ParsedCertificate): KeyObject {
  let key = publicKeys.get(c);
  if (!key) publicKeys.set(c, (key = c.node.publicKey));
  return key;
}
