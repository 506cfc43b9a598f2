// A typed client of the authorizer's HTTP API for relying-party backends.
export { createAuthorizerClient, type AuthorizerClient, type AuthorizerClientOptions, type CallOptions, type ResolveOptions } from './authorizer-client.js';
export { AuthorizerApiError, UnexpectedResponseError, ResponseLimitError, isAuthorizerApiError, type FieldProblem, type ResponseLimit } from './authorizer-api-error.js';
export { isErrorCode, errorCodeInfo, type ErrorCode } from './error-code.js';
export type {
  AuthorizationStatus,
  TerminalStatus,
  CreateAuthorizationBody,
  CreatedAuthorization,
  CredentialsResponse,
  PolicyResponse,
  ResolveResponseCodeBody,
  ResolvedResponseCode,
  DcApiBody,
  DcApiJwtBody,
  DcApiResult,
  TrustAnchorCertificate,
} from './api-types.js';
// The generated types of the whole document, for the `raw` client or a client of your own.
export type { paths, operations, components } from './generated/authorizer-api.js';
