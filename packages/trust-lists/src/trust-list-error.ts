import type { ErrorClassCode } from '@vp-authorizer/core';
/** Why a trust source could not be loaded, or why its anchors are not used. Stable codes (core's CODES table). */
export type TrustListFailure =
  /** The document is not a trusted list of its kind (syntax, missing element, bad date, bad certificate). */
  | 'malformed'
  /** The XML uses a construct no trusted list needs (DOCTYPE, entities, processing instructions) or exceeds a structural bound (depth, nodes, attribute size). */
  | 'xml_refused'
  /** The document is larger than the configured size limit. */
  | 'too_large'
  /** The signature does not verify (the content was changed after signing, or the signature is broken). */
  | 'signature_invalid'
  /** The signature verifies under no configured list-signer certificate. */
  | 'unknown_signer'
  /** The list is past its NextUpdate plus the configured grace (fail closed). */
  | 'stale'
  /** The source could not be fetched (the outbound-fetch failure is the cause). */
  | 'fetch_failed'
  /** The source has never loaded successfully. */
  | 'not_loaded';

export const TRUST_LIST_CODES = {
  malformed: 'trust_list.malformed',
  xml_refused: 'trust_list.xml_refused',
  too_large: 'trust_list.too_large',
  signature_invalid: 'trust_list.signature_invalid',
  unknown_signer: 'trust_list.unknown_signer',
  stale: 'trust_list.stale',
  fetch_failed: 'trust_list.fetch_failed',
  not_loaded: 'trust_list.not_loaded',
} as const satisfies Record<TrustListFailure, Extract<ErrorClassCode, `trust_list.${string}`>>;

export type TrustListErrorCode = (typeof TRUST_LIST_CODES)[TrustListFailure];

/**
 * A trust source refused. The message names the source and what is wrong, never key material; the
 * `code` is stable (see the error table).
 */
export class TrustListError extends Error {
  override readonly name = 'TrustListError';
  readonly code: TrustListErrorCode;
  constructor(
    readonly reason: TrustListFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = TRUST_LIST_CODES[reason];
  }
}
