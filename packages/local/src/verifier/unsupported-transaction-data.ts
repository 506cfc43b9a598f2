import type { PolicyResult } from '@vp-authorizer/core';
import { failed, PolicyFailure } from './policy-failure.js';
import { transactionDataFor } from './sd-jwt/transaction-data.js';

/**
 * OpenID4VP 1.0 defines transaction data binding only for SD-JWT VC (B.3.3). Another format
 * addressed by an entry cannot have confirmed it, so the presentation fails instead of silently
 * dropping the confirmation.
 */
export function unsupportedTransactionData(transactionData: readonly string[] | undefined, queryId: string, path: (string | number)[], format: string): PolicyResult | undefined {
  let applicable: number;
  try {
    applicable = transactionDataFor(transactionData, queryId).length;
  } catch (error) {
    if (error instanceof PolicyFailure) return failed(path, 'holderBinding', error.code, error.detail);
    throw error;
  }
  return applicable > 0 ? failed(path, 'holderBinding', 'holder_binding.transaction_data_unsupported', `Transaction data cannot be bound to a ${format} presentation`) : undefined;
}
