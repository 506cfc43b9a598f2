// @peculiar/x509 (via ../x509) needs the Reflect polyfill before it loads.
import 'reflect-metadata';
import type { DcqlCredentialQuery } from '@vp-authorizer/core';
import { authorityKeyIdentifiers } from '../../x509/index.js';
import { certificateDer } from '../../x509/certificate.js';
import type { IssuerAnchorSource } from '../../x509/issuer-anchors.js';
import type { Problem } from '../validator-results.js';

/**
 * DCQL `trusted_authorities` (OpenID4VP 1.0 §6.1.1): the credential must match at least one
 * entry. `aki` matches when a value equals the AKI keyIdentifier (base64url) of any certificate in
 * the credential's chain. `etsi_tl` matches when trusted lists are configured (`issuerAnchors`
 * with `inTrustedList`) and a list whose identifier (its location) is a value lists the chain's
 * top or its issuer; the chain itself is checked by the trustedIssuer policy and the verifier.
 * `openid_federation`, and `etsi_tl` without lists, cannot be evaluated: when nothing else
 * matched, the result is `trusted_authorities.unsupported` (fail closed rather than silently pass).
 * OpenID Federation trust-chain resolution is left to a maintained library once one is stable for
 * Node (docs/trust.md names those considered); none is written here.
 */
export function trustedAuthoritiesProblem(query: DcqlCredentialQuery, x5c: readonly string[] | readonly Uint8Array[], pointer: string, lists?: IssuerAnchorSource): Problem | undefined {
  const entries = query.trusted_authorities;
  if (entries === undefined || entries.length === 0) return undefined;
  let akis: string[] | undefined;
  const unsupported = new Set<string>();
  for (const entry of entries) {
    if (entry.type === 'etsi_tl' && lists?.inTrustedList) {
      const top = topCertificate(x5c);
      if (top && lists.inTrustedList({ top, lists: entry.values })) return undefined;
      continue;
    }
    if (entry.type !== 'aki') {
      unsupported.add(entry.type);
      continue;
    }
    akis ??= safeAkis(x5c);
    if (entry.values.some((value) => akis?.includes(value))) return undefined;
  }
  if (unsupported.size > 0) {
    return {
      code: 'trusted_authorities.unsupported',
      detail: `no entry matched and trusted authority type(s) ${[...unsupported].map((t) => JSON.stringify(t)).join(', ')} cannot be evaluated by the local validator${unsupported.has('openid_federation') ? ' (openid_federation is not supported: OpenID Federation trust chains are not resolved)' : ''}${unsupported.has('etsi_tl') ? ' (etsi_tl needs trusted lists configured as issuerAnchors)' : ''}`,
      pointer: `${pointer}/trusted_authorities`,
    };
  }
  return {
    code: 'trusted_authorities.no_match',
    detail: x5c.length === 0 ? 'the credential carries no certificate chain to match trusted_authorities against' : 'no certificate in the credential chain matches trusted_authorities (its aki values, or the trusted lists named by etsi_tl)',
    pointer: `${pointer}/trusted_authorities`,
  };
}

function topCertificate(x5c: readonly string[] | readonly Uint8Array[]): Uint8Array | undefined {
  try {
    return x5c.length > 0 ? certificateDer(x5c[x5c.length - 1]!) : undefined;
  } catch {
    return undefined;
  }
}

function safeAkis(x5c: readonly string[] | readonly Uint8Array[]): string[] {
  try {
    return authorityKeyIdentifiers(x5c);
  } catch {
    return [];
  }
}
