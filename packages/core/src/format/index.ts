export * from './run-format-policy.js';
export type { FormatErrorCode } from './format-error.js';
export { PresentationSubmissionSchema, type PresentationSubmission } from './parse-pe-vp-token.js';
export { cborToJson } from './cbor-to-json.js';
export { CborBudget, CborBudgetExceeded, DEFAULT_CBOR_BUDGET } from './cbor-budget.js';
export { decodeWalletCbor, WalletCborRefused } from './wallet-cbor.js';
export { decryptAuthorizationResponse } from '../response/decrypt-response.js';
export { handoverInfoHash, jwkThumbprint, sessionTranscriptBytes } from '../crypto/session-transcript.js';
