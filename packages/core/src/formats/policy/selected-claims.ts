import type { DcqlQuery } from '../../model/authorization-query.js';
import { formatDescriptor } from '../registry.js';
import { claimPathKey } from '../shared/claim-path-key.js';

/**
 * OpenID4VP 1.0 section 6.4: a wallet must not send selectively disclosable claims that were not
 * selected, except claims the same credential is selected with by another credential query of
 * the request. So per credential query that names `claims`: the paths of every query of the same
 * format and the same `meta` (those that can select the same credential), every `claim_sets`
 * option included (the wallet picks one; a claim of another option was still asked for).
 *
 * A query without `claims` gets no set and is not constrained here: section 6.4.1 then allows
 * only the claims mandatory to present, which for an mdoc is none, but wallets commonly answer
 * such a query with the whole document and refusing that is left to the relying party's query
 * (name the claims). ISO/IEC 18013-7 Annex C requests always name their elements.
 */
export function selectedClaimsByQuery(dcql: DcqlQuery, keyOf: (query: CredentialQuery) => string = selectionKey): Map<string, ReadonlySet<string>> {
  const credentials = Array.isArray(dcql.credentials) ? dcql.credentials : [];
  // One key per query and one pass grouping paths by key: comparing every pair of queries (a
  // stringify of `meta` per pair) made each wallet response quadratic in the request's queries.
  const keys = credentials.map((query) => keyOf(query));
  const pathsByKey = new Map<string, Set<string>>();
  credentials.forEach((query, i) => {
    let paths = pathsByKey.get(keys[i]!);
    if (!paths) pathsByKey.set(keys[i]!, (paths = new Set()));
    for (const claim of query.claims ?? []) paths.add(claimPathKey(claim.path));
  });
  const selected = new Map<string, ReadonlySet<string>>();
  credentials.forEach((query, i) => {
    if (Array.isArray(query.claims)) selected.set(query.id, pathsByKey.get(keys[i]!)!);
  });
  return selected;
}

type CredentialQuery = DcqlQuery['credentials'][number];

/**
 * Equal for queries that can select the same credential: the same format (an alias counts as its
 * format; an unknown name only matches itself) and the same `meta`.
 */
export function selectionKey(query: CredentialQuery): string {
  return JSON.stringify([formatDescriptor(query.format)?.id ?? query.format, query.meta ?? {}]);
}
