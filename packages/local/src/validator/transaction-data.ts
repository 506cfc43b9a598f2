import type { PolicyResult } from '@vp-authorizer/core';
import { failed, isNonEmpty, passed, type Problem } from './validator-results.js';

function decodeEntry(entry: string): { credential_ids: string[] } | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(entry)) return undefined;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(entry, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded)) return undefined;
  const ids = (decoded as { credential_ids?: unknown }).credential_ids;
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === 'string')) return undefined;
  return { credential_ids: ids };
}

/**
 * Transaction data coverage (OpenID4VP 1.0 section 8.4), the validator's half: every
 * `transaction_data` entry must name (in `credential_ids`) at least one query that has a valid
 * presentation. Whether that presentation's KB-JWT carries the entry's hash is the verifier's
 * check. No entries → no result.
 */
export function transactionDataResult(entries: readonly string[] | undefined, validQueryIds: ReadonlySet<string>): PolicyResult | undefined {
  if (entries === undefined || entries.length === 0) return undefined;
  const problems: Problem[] = [];
  entries.forEach((entry, i) => {
    const decoded = decodeEntry(entry);
    if (decoded === undefined) {
      problems.push({ code: 'transaction_data.invalid', detail: `transaction_data entry ${i} is not base64url JSON with a non-empty credential_ids array` });
    } else if (!decoded.credential_ids.some((id) => validQueryIds.has(id))) {
      problems.push({ code: 'transaction_data.not_covered', detail: `transaction_data entry ${i} names no credential query that has a valid presentation` });
    }
  });
  return isNonEmpty(problems) ? failed('transactionData', [], problems) : passed('transactionData', [], { covered: entries.length });
}
