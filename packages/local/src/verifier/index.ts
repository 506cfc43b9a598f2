export { localVerifier } from './local-verifier.js';
export { SUPPORTED_ALGS, type LocalVerifierOptions, type SupportedAlg } from './local-verifier-options.js';
export type { VerifierErrorCode } from './verifier-error-codes.js';
