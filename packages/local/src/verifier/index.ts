export { localVerifier } from './local-verifier.js';
export { SUPPORTED_ALGS, type LocalVerifierOptions, type SupportedAlg } from './local-verifier-options.js';
export type { VerifierErrorCode } from './verifier-error-codes.js';
export { DATA_INTEGRITY_CRYPTOSUITES, type DataIntegrityCryptosuite } from '../data-integrity/cryptosuites.js';
export { BUNDLED_CONTEXTS_VERSION } from '../data-integrity/bundled-contexts.js';
export * from '../x509/index.js';
export * from '../status-list/index.js';
export * from '../did/index.js';
