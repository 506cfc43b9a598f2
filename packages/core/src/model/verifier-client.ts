import type { AuthorizationQuery } from './authorization-record.js';
import type { DidMethodsConfig } from './did-methods-config.js';
import type { ParsedIdToken, ParsedPresentation } from './parsed-presentation.js';
import type { ClientCallOptions } from './validator-client.js';
import type { PolicyResult } from './policy-result.js';

/** Inputs for the mdoc SessionTranscript (OpenID4VP 1.0 appendix B.2.6; ISO/IEC 18013-7 Annex C for `annex_c`). */
export type SessionTranscriptInput =
  | { kind: 'redirect'; clientId: string; nonce: string; responseUri: string; /** base64url RFC 7638 SHA-256 thumbprint, or null when unencrypted */ jwkThumbprint: string | null }
  | { kind: 'dc_api'; origin: string; nonce: string; jwkThumbprint: string | null }
  | { kind: 'annex_c'; origin: string; /** The EncryptionInfo exactly as handed to the browser: base64url CBOR. */ encryptionInfo: string };

export interface VerifyInput {
  authorizationId: string;
  query: AuthorizationQuery;
  presentations: ParsedPresentation[];
  nonce: string;
  /** Expected audience: the full client_id (redirect flows) or `origin:<origin>` (DC API). */
  audience: string;
  sessionTranscript: SessionTranscriptInput;
  /**
   * Holder binding required per query id (DCQL `require_cryptographic_holder_binding`, default
   * true). Under HAIP every entry is true and a missing binding is a verify failure.
   */
  holderBindingRequired: Record<string, boolean>;
  transactionData?: string[];
  profile?: 'haip';
  didMethods: DidMethodsConfig;
}

export interface VerifyIdTokenInput {
  authorizationId: string;
  idToken: ParsedIdToken;
  nonce: string;
  audience: string;
  didMethods: DidMethodsConfig;
}

/** Signature algorithms a verifier accepts: JOSE names (JWT, SD-JWT, KB-JWT) and COSE ids (mdoc). */
export interface SupportedAlgorithms {
  jose: readonly string[];
  cose: readonly number[];
}

/**
 * Cryptographic verification. Same contract as ValidatorClient: resolve with results, throw only
 * when verification could not be carried out. Must be safe to call concurrently. The input is
 * shared with the validator's concurrent call and may be frozen: read it, never change it.
 */
export interface VerifierClient {
  verify(input: VerifyInput, options: ClientCallOptions): Promise<PolicyResult[]>;
  verifyIdToken(input: VerifyIdTokenInput, options: ClientCallOptions): Promise<PolicyResult[]>;
  /**
   * Optional: the algorithms `verify` accepts for a request with this profile. Requests then
   * advertise exactly these in `vp_formats_supported`; without it, ES256 only is advertised.
   */
  supportedAlgorithms?(profile: 'haip' | undefined): SupportedAlgorithms;
}
