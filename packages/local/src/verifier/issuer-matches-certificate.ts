import { SubjectAlternativeNameExtension } from '@peculiar/x509';
import type { ParsedCertificate } from '../x509/certificate.js';
import { PolicyFailure } from './policy-failure.js';

function hostOf(uri: string): string | undefined {
  try {
    return new URL(uri).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** The leaf's dNSName SANs and URI SAN hosts, read from the extension once per parsed certificate. */
const altHosts = new WeakMap<ParsedCertificate, { dns: readonly string[]; uris: readonly (string | undefined)[] }>();
function subjectAltHosts(leaf: ParsedCertificate): { dns: readonly string[]; uris: readonly (string | undefined)[] } {
  let hosts = altHosts.get(leaf);
  if (hosts === undefined) {
    const names = leaf.cert.getExtension(SubjectAlternativeNameExtension)?.names.items ?? [];
    hosts = Object.freeze({
      dns: Object.freeze(names.filter((n) => n.type === 'dns').map((n) => n.value.toLowerCase())),
      uris: Object.freeze(names.filter((n) => n.type === 'url').map((n) => hostOf(n.value))),
    });
    altHosts.set(leaf, hosts);
  }
  return hosts;
}

/**
 * An https `iss` must name the certificate that signed: when the x5c leaf has dNSName or URI
 * SANs, the `iss` host must equal one dNSName or the host of one URI SAN. A leaf without such
 * SANs cannot be compared (the anchor alone vouches for it); other `iss` forms are not bound.
 */
export function checkIssuerMatchesCertificate(iss: unknown, leaf: ParsedCertificate): Record<string, unknown> {
  if (typeof iss !== 'string' || !iss.startsWith('https://')) return {};
  const { dns, uris } = subjectAltHosts(leaf);
  if (dns.length === 0 && uris.length === 0) return {};
  const host = hostOf(iss);
  if (host === undefined || !(dns.includes(host) || uris.includes(host))) throw new PolicyFailure('proof.issuer_mismatch', 'The issuer host is not a dNSName or URI subjectAltName of the signing certificate');
  return { issuerBoundToCertificate: true };
}
