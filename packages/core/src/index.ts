export * from './errors/error-codes.js';
export * from './errors/authorizer-error.js';
export * from './errors/config-error.js';
export * from './errors/store-unavailable-error.js';
export * from './model/authorization-record.js';
export * from './model/policy-result.js';
export * from './model/validator-client.js';
export * from './model/verifier-client.js';
export * from './model/parsed-presentation.js';
export * from './model/extracted-credential.js';
export * from './model/authorization-store.js';
export * from './http/read-body.js';
export * from './config/cors-config.js';
export * from './model/did-methods-config.js';
export * from './config/instance-config.js';
export * from './config/validate-config.js';
export * from './request/index.js';
// The format policy's public part; the registry and descriptors are in `@vp-authorizer/core/formats`.
export { runFormatPolicy, type FormatInput, type FormatOutcome } from './formats/policy/run-format-policy.js';
export type { FormatErrorCode } from './formats/format-error.js';
export { PresentationSubmissionSchema, type PresentationSubmission } from './formats/policy/parse-pe-vp-token.js';
export { cborToJson } from './formats/shared/cbor-to-json.js';
export { CborBudget, CborBudgetExceeded, DEFAULT_CBOR_BUDGET } from './formats/shared/cbor-budget.js';
export { decodeWalletCbor, WalletCborRefused } from './formats/shared/wallet-cbor.js';
export { decryptAuthorizationResponse } from './response/decrypt-response.js';
export { handoverInfoHash, jwkThumbprint, sessionTranscriptBytes } from './crypto/session-transcript.js';
export * from './cors/index.js';
export * from './clients/index.js';
export * from './store/index.js';
export * from './dev/index.js';
export * from './authorizer.js';
export * from './config/authorizer-options.js';
export * from './events/authorizer-event.js';
export * from './events/logger.js';
export * from './wire/core-request.js';
export * from './http/fetch-bridge.js';
export * from './http/node-body-limits.js';
export * from './wire/parse-body.js';
export { errorResponse, jsonResponse } from './wire/responses.js';
export { ROUTES, matchRoute, type Route, type RouteAudience } from './http/routes.js';
export { randomId, constantTimeEqual } from './crypto/secrets.js';
export {
  ENDPOINTS,
  openApiDocument,
  type Endpoint,
  type OpenApiDocument,
  type CreateAuthorizationRequest,
  type StatusResponse,
  type PolicyResponse,
  type CredentialsResponse,
  type WalletResponseAnswer,
  type DcApiAnswer,
  type ResolvedResponseCode,
  type RpErrorBody,
  type WalletErrorBody,
} from './endpoints/index.js';
