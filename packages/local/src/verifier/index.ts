export { localVerifier } from './local-verifier.js';
export { DATA_INTEGRITY_LIMITS, SUPPORTED_ALGS, type DataIntegrityLimit, type LocalVerifierOptions, type SupportedAlg } from './local-verifier-options.js';
export type { VerifierErrorCode } from './verifier-error-codes.js';
