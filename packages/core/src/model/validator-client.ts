import type { AuthorizationQuery } from './authorization-record.js';
import type { ParsedPresentation } from './parsed-presentation.js';
import type { PolicyResult } from './policy-result.js';

/** What the authorizer hands to structural validation (DCQL / PE matching, trust, transaction data). */
export interface ValidateInput {
  authorizationId: string;
  query: AuthorizationQuery;
  presentations: ParsedPresentation[];
  /** base64url-encoded transaction data strings exactly as sent to the wallet. */
  transactionData?: string[];
  profile?: 'haip';
}

export interface ClientCallOptions {
  /** Aborted when the per-call timeout passes or the authorizer gives up; stop work promptly. */
  signal: AbortSignal;
}

/**
 * Structural and content validation. Resolve with results (an entry with `error` = the
 * presentation failed validation → `rejected`). Reject (throw) only when the check could not be
 * carried out (service down, misconfiguration) → `error`. Must be safe to call concurrently.
 * The input is shared with the verifier's concurrent call and may be frozen: read it, never change it.
 */
export interface ValidatorClient {
  validate(input: ValidateInput, options: ClientCallOptions): Promise<PolicyResult[]>;
}
