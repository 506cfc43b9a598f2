// @peculiar/x509 (via ../x509) needs the Reflect polyfill before it loads.
import 'reflect-metadata';
import type { DcqlCredentialQuery } from '@vp-authorizer/core';
import { authorityKeyIdentifiers } from '../../x509/index.js';
import type { Problem } from '../validator-results.js';

/**
 * DCQL `trusted_authorities` (OpenID4VP 1.0 §6.1.1): the credential must match at least one
 * entry. Only `aki` can be evaluated locally: it matches when a value equals the AKI keyIdentifier
 * (base64url) of any certificate in the credential's chain. `etsi_tl` and `openid_federation`
 * need external trust infrastructure; when no `aki` entry matched and such an entry is present,
 * the result is `trusted_authorities.unsupported` (fail closed rather than silently pass).
 */
export function trustedAuthoritiesProblem(query: DcqlCredentialQuery, x5c: readonly string[] | readonly Uint8Array[], pointer: string): Problem | undefined {
  const entries = query.trusted_authorities;
  if (entries === undefined || entries.length === 0) return undefined;
  let akis: string[] | undefined;
  const unsupported = new Set<string>();
  for (const entry of entries) {
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
      detail: `no aki entry matched and trusted authority type(s) ${[...unsupported].map((t) => JSON.stringify(t)).join(', ')} cannot be evaluated by the local validator`,
      pointer: `${pointer}/trusted_authorities`,
    };
  }
  return {
    code: 'trusted_authorities.no_match',
    detail: x5c.length === 0 ? 'the credential carries no certificate chain to match trusted_authorities against' : 'no certificate in the credential chain has an authority key identifier listed in trusted_authorities',
    pointer: `${pointer}/trusted_authorities`,
  };
}

function safeAkis(x5c: readonly string[] | readonly Uint8Array[]): string[] {
  try {
    return authorityKeyIdentifiers(x5c);
  } catch {
    return [];
  }
}
