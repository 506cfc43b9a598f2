import { AuthorityKeyIdentifierExtension } from '@peculiar/x509';
import { parseCertificate, type ParsedCertificate } from './certificate.js';

/**
 * base64url KeyIdentifiers of the Authority Key Identifier extension of every certificate in a
 * chain, in chain order, without duplicates. DCQL `trusted_authorities` type `aki` matches when
 * one of its values equals one of these (OpenID4VP 1.0 section 6.1.1.1).
 */
export function authorityKeyIdentifiers(chain: readonly (string | Uint8Array | ParsedCertificate)[]): string[] {
  const out = new Set<string>();
  for (const entry of chain) {
    const parsed = typeof entry === 'string' || entry instanceof Uint8Array ? parseCertificate(entry) : entry;
    const keyId = parsed.cert.getExtension(AuthorityKeyIdentifierExtension)?.keyId;
    if (keyId) out.add(Buffer.from(keyId, 'hex').toString('base64url'));
  }
  return [...out];
}
