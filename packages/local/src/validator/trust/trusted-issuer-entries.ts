import { ConfigError } from '@vp-authorizer/core';
import { parseTrustAnchors } from '../../x509/index.js';

/** Which configured or listed rule made an issuer trusted (reported in the `trustedIssuer` result). */
export type TrustRule = 'root' | 'did' | 'did_web_domain' | 'list';

/** `localValidator({ trustedIssuers })`, sorted: certificate roots, exact DIDs, did:web domains. */
export interface TrustedIssuerEntries {
  roots: readonly string[];
  dids: ReadonlySet<string>;
  /** Entries by lower-cased did:web host (with `%3A` port): the domain's DID and every DID under its paths. */
  didWebDomains: ReadonlyMap<string, string>;
}

// DID syntax (DID Core §3.1): method name, then method-specific id; no path, query or fragment.
const DID = /^did:[a-z0-9]+:(?:[A-Za-z0-9._-]|%[0-9A-Fa-f]{2})*(?::(?:[A-Za-z0-9._-]|%[0-9A-Fa-f]{2})+)*$/;

const refuse = (index: number, message: string) => new ConfigError('localValidator: invalid trustedIssuers', [{ path: `trustedIssuers.${index}`, message }]);

/**
 * Reads the mixed list: a PEM certificate is a root (its chains are trusted, as before); a
 * `did:web:<host>` without a path trusts that domain, its DID and every DID under its paths
 * (`did:web:<host>:…`); any other DID (a did:web with a path included) is trusted exactly.
 */
export function parseTrustedIssuerEntries(entries: readonly unknown[]): TrustedIssuerEntries {
  const roots: string[] = [];
  const dids = new Set<string>();
  const didWebDomains = new Map<string, string>();
  entries.forEach((entry, index) => {
    if (typeof entry !== 'string') throw refuse(index, 'an entry must be a string: a PEM certificate or a DID');
    const value = entry.trim();
    if (value.startsWith('did:')) {
      if (!DID.test(value)) throw refuse(index, `"${value.slice(0, 80)}" is not a DID (did:<method>:<id>, without a path, query or fragment)`);
      const webHost = /^did:web:([^:]+)$/.exec(value)?.[1];
      if (webHost !== undefined) didWebDomains.set(webHost.toLowerCase(), value);
      else dids.add(value);
      return;
    }
    if (!value.includes('-----BEGIN')) throw refuse(index, 'an entry must be a PEM certificate (-----BEGIN CERTIFICATE-----) or a DID (did:key:…, did:web:<domain>, …)');
    roots.push(entry);
  });
  if (roots.length > 0) {
    try {
      parseTrustAnchors(roots); // fail fast on a bad PEM; later calls hit the parse cache
    } catch (error) {
      throw new ConfigError('localValidator: invalid trustedIssuers', [{ path: 'trustedIssuers', message: (error as Error).message }]);
    }
  }
  return { roots: Object.freeze(roots), dids, didWebDomains };
}

/** The configured rule that trusts `did`, if any. */
export function didRule(entries: TrustedIssuerEntries, did: string): { rule: 'did' | 'did_web_domain'; entry: string } | undefined {
  if (entries.dids.has(did)) return { rule: 'did', entry: did };
  const web = /^did:web:([^:]+)(?::|$)/.exec(did);
  const host = web?.[1]?.toLowerCase();
  const entry = host === undefined ? undefined : entries.didWebDomains.get(host);
  if (entry !== undefined) return { rule: 'did_web_domain', entry };
  return undefined;
}
