import { FormatFailure } from '../format-error.js';
import type { DcqlQuery } from '../../model/authorization-query.js';

/**
 * Are the vp_token's keys enough to satisfy the query at all? Without `credential_sets` every
 * credential query needs a key; with them, every required set needs one option whose ids are all
 * present. This is a shape check on keys only (the validator re-checks after discarding invalid
 * presentations), but it keeps an empty or partial vp_token from being authorized when an
 * instance skips validation.
 */
export function checkDcqlCoverage(presentKeys: ReadonlySet<string>, dcql: DcqlQuery): FormatFailure | undefined {
  if (!dcql.credential_sets?.length) {
    const missing = dcql.credentials.filter((c) => !presentKeys.has(c.id)).map((c) => c.id);
    return missing.length
      ? new FormatFailure('format.query_not_covered', `the vp_token has no presentation for the credential queries: ${missing.map(safeId).join(', ')}`)
      : undefined;
  }
  for (const [index, set] of dcql.credential_sets.entries()) {
    if (set.required === false) continue;
    if (!set.options.some((option) => option.every((id) => presentKeys.has(id)))) {
      return new FormatFailure('format.query_not_covered', `no option of the required credential set ${index} is fully present in the vp_token`);
    }
  }
  return undefined;
}

// Query ids are validated at creation ([A-Za-z0-9_-]); cut anyway so a detail stays short.
const safeId = (id: string) => id.slice(0, 64);
