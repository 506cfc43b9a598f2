import type { PolicyCode } from '@vp-authorizer/core';

/** The `did.*` rows of core's CODES table. */
export type DidErrorCode = Extract<PolicyCode, `did.${string}`>;

/** A DID could not be turned into a verification key; `message` is safe to show (no key material). */
export class DidResolutionError extends Error {
  override readonly name = 'DidResolutionError';
  constructor(
    readonly code: DidErrorCode,
    message: string,
  ) {
    super(message);
  }
}
