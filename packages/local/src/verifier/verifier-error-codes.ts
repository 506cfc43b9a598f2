import type { PolicyCodeOf } from '@vp-authorizer/core';

/** The PolicyError codes of the local verifier: the `localVerifier` rows of core's CODES table. */
export type VerifierErrorCode = PolicyCodeOf<'localVerifier'>;
