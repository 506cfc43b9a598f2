import type { FieldError } from '../errors/authorizer-error.js';
import { MAX_JSON_DEPTH, jsonTextWithinDepth } from '../formats/shared/json-depth.js';
import { jsonPointer } from './json-pointer.js';

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** A decoded `transaction_data` entry (OpenID4VP 1.0 section 5.1); unknown members are kept. */
export interface TransactionDataEntry {
  type: string;
  credential_ids: string[];
  transaction_data_hashes_alg?: string[];
  [k: string]: unknown;
}

/** The JSON text of one base64url entry, or undefined when it is not base64url. */
function entryText(entry: string): string | undefined {
  return BASE64URL.test(entry) ? Buffer.from(entry, 'base64url').toString('utf8') : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A decoded entry is a JSON document of its own, which the body's depth check never saw: the
 * same limit applies before it is parsed, walked or re-encoded (bindTransactionData, the store).
 * Its size is bounded by the body's: base64url decodes to three quarters of its length.
 */
const tooDeep = (text: string) => !jsonTextWithinDepth(text);

/** Decode one base64url JSON entry, or undefined when it is not one (or nests too deep). */
export function decodeTransactionData(entry: string): unknown {
  const text = entryText(entry);
  return text === undefined || tooDeep(text) ? undefined : parseJson(text);
}

/**
 * Check every entry decodes to `{type, credential_ids}` whose ids name credential queries of the
 * request, and that none of them waives holder binding (the hashes travel in the KB-JWT).
 * Unless `requireCredentialIds`, an entry without `credential_ids` is accepted: clients of the
 * hosted API send such entries, and `bindTransactionData` binds them to every query.
 */
export function transactionDataIssues(
  entries: string[],
  base: (string | number)[],
  knownIds: ReadonlySet<string>,
  bindingWaived: ReadonlySet<string>,
  requireCredentialIds = true,
): FieldError[] {
  const issues: FieldError[] = [];
  entries.forEach((entry, i) => {
    const at = [...base, i];
    const text = entryText(entry);
    if (text !== undefined && tooDeep(text)) {
      issues.push({ pointer: jsonPointer(at), detail: `the decoded transaction_data entry is nested deeper than ${MAX_JSON_DEPTH} levels of objects and arrays` });
      return;
    }
    const decoded = text === undefined ? undefined : parseJson(text);
    if (decoded === null || typeof decoded !== 'object' || Array.isArray(decoded)) {
      issues.push({ pointer: jsonPointer(at), detail: 'each transaction_data entry must be base64url (no padding) of a JSON object' });
      return;
    }
    const td = decoded as Record<string, unknown>;
    if (typeof td.type !== 'string' || td.type.length === 0) issues.push({ pointer: jsonPointer(at), detail: 'the decoded transaction_data entry needs a "type" string' });
    const ids = td.credential_ids;
    if (ids === undefined && !requireCredentialIds) {
      if ([...knownIds].every((id) => bindingWaived.has(id))) {
        issues.push({ pointer: jsonPointer(at), detail: 'the transaction_data entry has no credential_ids and every credential query sets require_cryptographic_holder_binding: false, so none can carry it' });
      }
      return;
    }
    if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === 'string')) {
      issues.push({ pointer: jsonPointer(at), detail: 'the decoded transaction_data entry needs "credential_ids": a non-empty array of credential query ids' });
      return;
    }
    for (const id of ids as string[]) {
      if (!knownIds.has(id)) issues.push({ pointer: jsonPointer(at), detail: `credential_ids names "${id}", which is not a credential query id of this request` });
      else if (bindingWaived.has(id)) issues.push({ pointer: jsonPointer(at), detail: `credential query "${id}" sets require_cryptographic_holder_binding: false, which transaction_data cannot use` });
    }
  });
  return issues;
}

/**
 * The entries as the wallet receives them: an entry without `credential_ids` is re-encoded with
 * `credential_ids` naming every credential query that keeps holder binding (OpenID4VP 1.0 section
 * 5.1 requires the member, and wallets and verifiers use it to pick the KB-JWT that carries the
 * hash). Entries that have `credential_ids` are kept byte for byte. Call after
 * `transactionDataIssues` found nothing.
 */
export function bindTransactionData(entries: string[], queryIds: readonly string[], bindingWaived: ReadonlySet<string>): string[] {
  const bound = queryIds.filter((id) => !bindingWaived.has(id));
  return entries.map((entry) => {
    const decoded = decodeTransactionData(entry) as Record<string, unknown>;
    if (decoded.credential_ids !== undefined) return entry;
    return Buffer.from(JSON.stringify({ ...decoded, credential_ids: bound }), 'utf8').toString('base64url');
  });
}
