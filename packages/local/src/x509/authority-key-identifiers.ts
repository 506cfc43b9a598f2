import { AuthorityKeyIdentifierExtension, type X509Certificate } from '@peculiar/x509';
import { parseCertificate, type ParsedCertificate } from './certificate.js';

/**
 * base64url KeyIdentifiers of the Authority Key Identifier extension of every certificate in a
 * chain, in chain order, without duplicates. DCQL `trusted_authorities` type `aki` matches when
 * one of its values equals one of these (OpenID4VP 1.0 section 6.1.1.1).
 */
export function authorityKeyIdentifiers(chain: readonly (string | Uint8Array | ParsedCertificate)[]): string[] {
  const out = new Set<string>();
  for (const entry of chain) {
    const keyId = typeof entry === 'string' || entry instanceof Uint8Array ? keyIdentifierOf(parseCertificate(entry)) : rememberedKeyIdentifier(entry);
    if (keyId) out.add(keyId);
  }
  return [...out];
}

function keyIdentifierOf(parsed: ParsedCertificate): string | undefined {
  const keyId = parsed.cert.getExtension(AuthorityKeyIdentifierExtension)?.keyId;
  return keyId ? Buffer.from(keyId, 'hex').toString('base64url') : undefined;
}

// A parsed certificate's extensions never change, but @peculiar/x509 decodes them again on every
// getExtension: remembered per certificate object (the verdict cache hands out the same ones).
const keyIdentifiers = new WeakMap<X509Certificate, string | undefined>();

function rememberedKeyIdentifier(parsed: ParsedCertificate): string | undefined {
  if (keyIdentifiers.has(parsed.cert)) return keyIdentifiers.get(parsed.cert);
  const keyId = keyIdentifierOf(parsed);
  keyIdentifiers.set(parsed.cert, keyId);
  return keyId;
}
