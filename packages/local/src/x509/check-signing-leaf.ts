import { BasicConstraintsExtension, KeyUsageFlags, KeyUsagesExtension } from '@peculiar/x509';
import type { ParsedCertificate } from './certificate.js';

/**
 * An end-entity certificate whose key signs credentials or status lists: it must not be a CA
 * (a CA key signing tokens directly bypasses the issuance hierarchy), and a keyUsage extension,
 * when present, must allow digitalSignature. Returns a problem description or undefined.
 */
export function signingLeafProblem(leaf: ParsedCertificate): string | undefined {
  if (leaf.cert.getExtension(BasicConstraintsExtension)?.ca) return 'the leaf certificate is a CA certificate and must not sign credentials';
  const ku = leaf.cert.getExtension(KeyUsagesExtension);
  if (ku && (ku.usages & KeyUsageFlags.digitalSignature) === 0) return 'the leaf certificate key usage does not allow digitalSignature';
  return undefined;
}
