export * from './errors/error-codes.js';
export * from './errors/authorizer-error.js';
export * from './errors/config-error.js';
export * from './errors/store-unavailable-error.js';
export * from './authorization/authorization-record.js';
export * from './clients/policy-result.js';
export * from './clients/validator-client.js';
export * from './clients/verifier-client.js';
export * from './format/parsed-presentation.js';
export * from './format/extracted-credential.js';
export * from './store/authorization-store.js';
export * from './http/read-body.js';
export * from './config/cors-config.js';
export * from './config/did-methods-config.js';
export * from './config/instance-config.js';
export * from './config/validate-config.js';
export * from './request/index.js';
export * from './format/index.js';
export * from './cors/index.js';
export * from './clients/index.js';
export * from './store/index.js';
export * from './dev/index.js';
export * from './authorizer.js';
export * from './config/authorizer-options.js';
export * from './events/authorizer-event.js';
export * from './events/logger.js';
export * from './http/core-request.js';
export * from './http/fetch-bridge.js';
export * from './http/node-body-limits.js';
export * from './http/parse-body.js';
export { errorResponse, jsonResponse } from './http/responses.js';
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
