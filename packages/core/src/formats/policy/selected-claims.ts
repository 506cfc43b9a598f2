import type { DcqlQuery } from '../../model/authorization-query.js';
import { sameFormat } from '../registry.js';
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
export function selectedClaimsByQuery(dcql: DcqlQuery): Map<string, ReadonlySet<string>> {
  const credentials = Array.isArray(dcql.credentials) ? dcql.credentials : [];
  const meta = (query: (typeof credentials)[number]): string => JSON.stringify(query.meta ?? {});
  const selected = new Map<string, ReadonlySet<string>>();
  for (const query of credentials) {
    if (!Array.isArray(query.claims)) continue;
    const paths = new Set<string>();
    for (const other of credentials) {
      if (other !== query && !(sameFormat(other.format, query.format) && meta(other) === meta(query))) continue;
      for (const claim of other.claims ?? []) paths.add(claimPathKey(claim.path));
    }
    selected.set(query.id, paths);
  }
  return selected;
}
