import { createHash } from 'node:crypto';
import { base64UrlToText } from './base64url.js';

/**
 * `transaction_data_hashes` for one query: base64url SHA-256 over each entry string exactly as
 * sent, for the entries whose `credential_ids` name the query (OpenID4VP 1.0 B.3.3). When an
 * entry lists `transaction_data_hashes_alg`, sha-256 is echoed back.
 */
export function transactionDataHashes(transactionData: string[] | undefined, queryId: string): { hashes: string[]; alg?: string } | undefined {
  if (!transactionData) return undefined;
  let echoAlg = false;
  const hashes: string[] = [];
  for (const entry of transactionData) {
    const decoded = JSON.parse(base64UrlToText(entry)) as { credential_ids?: string[]; transaction_data_hashes_alg?: string[] };
    if (!decoded.credential_ids?.includes(queryId)) continue;
    if (decoded.transaction_data_hashes_alg) {
      if (!decoded.transaction_data_hashes_alg.includes('sha-256')) throw new Error('test wallet: only sha-256 transaction data hashes are supported');
      echoAlg = true;
    }
    hashes.push(createHash('sha256').update(entry).digest('base64url'));
  }
  if (hashes.length === 0) return undefined;
  return echoAlg ? { hashes, alg: 'sha-256' } : { hashes };
}
