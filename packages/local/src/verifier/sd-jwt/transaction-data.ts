import { base64UrlToUtf8, bytesToBase64Url, digest, isRecord, isSupportedHash } from '../encoding.js';
import { PolicyFailure } from '../policy-failure.js';

export interface TransactionDataEntry {
  /** The base64url string exactly as sent in the request. */
  encoded: string;
  index: number;
  /** `transaction_data_hashes_alg` of the entry, when the request restricted it. */
  hashAlgs?: string[];
}

const mismatch = (detail: string) => new PolicyFailure('holder_binding.transaction_data_mismatch', detail);

/** Transaction data entries whose `credential_ids` include `queryId`. */
export function transactionDataFor(entries: readonly string[] | undefined, queryId: string): TransactionDataEntry[] {
  const out: TransactionDataEntry[] = [];
  (entries ?? []).forEach((encoded, index) => {
    let decoded: unknown;
    try {
      decoded = JSON.parse(base64UrlToUtf8(encoded));
    } catch {
      throw mismatch(`Transaction data entry ${index} is not base64url JSON`);
    }
    if (!isRecord(decoded) || !Array.isArray(decoded.credential_ids)) throw mismatch(`Transaction data entry ${index} has no credential_ids`);
    if (!decoded.credential_ids.includes(queryId)) return;
    const algs = decoded.transaction_data_hashes_alg;
    out.push({ encoded, index, ...(Array.isArray(algs) ? { hashAlgs: algs.filter((a): a is string => typeof a === 'string') } : {}) });
  });
  return out;
}

/**
 * OpenID4VP 1.0 B.3.3: the KB-JWT's `transaction_data_hashes` contains base64url(H(entry as sent))
 * for every applicable entry, with H = `transaction_data_hashes_alg` (default sha-256), which must
 * be one the entry allowed.
 */
export function checkTransactionDataHashes(kbPayload: Record<string, unknown>, entries: readonly TransactionDataEntry[]): Record<string, unknown> {
  if (entries.length === 0) return {};
  const hashes = kbPayload.transaction_data_hashes;
  if (!Array.isArray(hashes) || hashes.length === 0) throw mismatch('The KB-JWT has no transaction_data_hashes');
  const alg = kbPayload.transaction_data_hashes_alg ?? 'sha-256';
  if (typeof alg !== 'string' || !isSupportedHash(alg)) throw mismatch('The transaction_data_hashes_alg is not supported');
  for (const entry of entries) {
    // An entry without transaction_data_hashes_alg allows only the default, sha-256 (VP B.3.3).
    if (!(entry.hashAlgs ?? ['sha-256']).includes(alg)) throw mismatch(`Transaction data entry ${entry.index} does not allow the hash algorithm ${alg}`);
    if (!hashes.includes(bytesToBase64Url(digest(alg, entry.encoded)))) throw mismatch(`Transaction data entry ${entry.index} is not covered by transaction_data_hashes`);
  }
  return { transactionData: entries.map((e) => e.index), transactionDataHashAlg: alg };
}
