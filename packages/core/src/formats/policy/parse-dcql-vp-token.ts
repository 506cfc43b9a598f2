import { isJsonObject } from '../shared/decode-jwt.js';
import { FormatFailure } from '../format-error.js';
import { clip, parseJsonParameter } from '../shared/parse-json-parameter.js';
import { parsePresentation, type ParseOptions } from './parse-presentation.js';
import { selectedClaimsByQuery } from './selected-claims.js';
import type { ParsedPresentation } from '../../model/parsed-presentation.js';
import type { DcqlQuery } from '../../model/authorization-query.js';

/** Presentations one credential query may be answered with (`multiple: true`). */
export const MAX_PRESENTATIONS_PER_QUERY = 16;

/**
 * OpenID4VP 1.0 section 8.1: `{"<credential query id>": [presentation, …]}`.
 *
 * Shape only: every key is a query id of this request, each value is a non-empty array (the
 * specification says MUST; a bare value is refused rather than guessed at), one element unless
 * the query says `multiple: true`. A missing key is NOT an error here,
 * even for a query that is required: which queries must be answered depends on
 * `credential_sets`, and coverage is decided in one place, the validator.
 *
 * Collects every presentation failure instead of stopping at the first one. Each presentation is
 * parsed with the claims its query selected (selected-claims.ts).
 */
export function parseDcqlVpToken(vpToken: unknown, dcql: DcqlQuery, options: ParseOptions): { presentations: ParsedPresentation[]; failures: FormatFailure[] } {
  const parsed = parseJsonParameter(vpToken);
  if (!parsed.ok || !isJsonObject(parsed.value)) {
    throw new FormatFailure('format.vp_token_invalid', 'vp_token must be a JSON object keyed by credential query id', []);
  }
  const queries = new Map((Array.isArray(dcql.credentials) ? dcql.credentials : []).map((q) => [q.id, q]));
  const presentations: ParsedPresentation[] = [];
  const failures: FormatFailure[] = [];
  const selected = selectedClaimsByQuery(dcql);
  // Bounded before anything is parsed: every entry and presentation costs decoding, results
  // stored with the record, and (for each presentation) a certificate chain in the verifier.
  const entries = Object.keys(parsed.value);
  // A few unknown keys are each reported; beyond that the whole vp_token is refused at once.
  if (entries.length > queries.size + 16) {
    throw new FormatFailure('format.vp_token_invalid', `vp_token has ${entries.length} entries but the query has ${queries.size} credential queries`, []);
  }

  for (const [queryId, value] of Object.entries(parsed.value)) {
    const query = queries.get(queryId);
    if (!query) {
      failures.push(new FormatFailure('format.unknown_query_id', 'vp_token has a key that is not a credential query id of this request', [clip(queryId)]));
      continue;
    }
    if (!Array.isArray(value)) {
      failures.push(new FormatFailure('format.vp_token_invalid', 'each vp_token value must be an array of presentations', [queryId]));
      continue;
    }
    const values: unknown[] = value;
    if (values.length === 0) {
      failures.push(new FormatFailure('format.cardinality', 'a vp_token entry must contain at least one presentation', [queryId]));
      continue;
    }
    if (values.length > MAX_PRESENTATIONS_PER_QUERY) {
      failures.push(new FormatFailure('format.cardinality', `at most ${MAX_PRESENTATIONS_PER_QUERY} presentations per credential query, got ${values.length}`, [queryId]));
      continue;
    }
    if (values.length > 1 && query.multiple !== true) {
      failures.push(new FormatFailure('format.cardinality', `expected exactly one presentation (the query does not allow multiple), got ${values.length}`, [queryId]));
      continue;
    }
    const selectedClaims = selected.get(queryId);
    const presentationOptions = selectedClaims ? { ...options, selectedClaims } : options;
    values.forEach((item, index) => {
      try {
        presentations.push(parsePresentation(item, { queryId, index, format: query.format }, presentationOptions));
      } catch (error) {
        if (!(error instanceof FormatFailure)) throw error;
        failures.push(error);
      }
    });
  }
  return { presentations, failures };
}
