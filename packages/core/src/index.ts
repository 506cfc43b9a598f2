// The public API of @vp-authorizer/core, every name listed. Adapters import `@vp-authorizer/core/http`;
// code that works on presentations (verifiers, validators, new formats) imports
// `@vp-authorizer/core/formats`. No valibot schema is exported: the public API does not depend on
// valibot's major version (options are validated by createAuthorizer, which reports ConfigError).

// The authorizer and its configuration.
export { createAuthorizer, type Authorizer } from './authorizer.js';
export type { HandleOptions } from './wire/core-request.js';
export type { AuthorizerOptions, InstanceOptions, Clock } from './config/authorizer-options.js';
export type { InstanceConfig, InstanceConfigInput, ServiceClientReference } from './config/instance-config.js';
export type { SigningInput, SigningOption, KeySigningInput, SignerSigningInput } from './config/signing-input.js';
export type { RequestSigner } from './model/request-signer.js';
export type { ReaderAuthOption, KeyReaderAuthIdentity, SignerReaderAuthIdentity } from './config/reader-auth-input.js';
export { createKeySigner } from './crypto/key-signer.js';
export type { CorsConfig, CorsConfigInput } from './config/cors-config.js';
export { corsConfigFromEnv } from './cors/cors-config-from-env.js';
export { resolveCorsConfig } from './cors/resolve-cors-config.js';

// The HTTP API as data: every endpoint, its schemas and the OpenAPI 3.1 document built from them.
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
export type { CreateAuthorizationResponse, DirectPostAuthorizationResponse, DcApiAuthorizationResponse } from './request/build-authorization.js';

// The model: records, queries, results and the contracts of clients and stores.
export {
  isTerminalStatus,
  expiryDueAt,
  sweepDueAt,
  type AuthorizationStatus,
  type ResponseMode,
  type ResponseType,
  type DcApiProtocol,
  type AuthorizationRequestParameters,
  type EncryptionKeyRecord,
  type AuthorizationRecord,
} from './model/authorization-record.js';
export type { AuthorizationQuery, DcqlQuery, DcqlCredentialQuery, PresentationDefinition } from './model/authorization-query.js';
export type { PolicyResult, PolicyError, ServiceName, ServiceFailureReason } from './model/policy-result.js';
export type { ExtractedCredential } from './model/extracted-credential.js';
export type {
  JsonObject,
  DecodedJwt,
  SdJwtDisclosure,
  ParsedSdJwt,
  MdocIssuerSignedItem,
  ParsedMdocDocument,
  ParsedMdoc,
  ParsedJwtVc,
  ParsedJwtVcPresentation,
  ParsedJwtVp,
  ParsedLdp,
  ParsedPresentation,
  ParsedIdToken,
} from './model/parsed-presentation.js';
export type { ValidatorClient, ValidateInput, ClientCallOptions } from './model/validator-client.js';
export type { VerifierClient, VerifyInput, VerifyIdTokenInput, SessionTranscriptInput, SupportedAlgorithms } from './model/verifier-client.js';
export type { AuthorizerStore, RecordStore, CodeStore, ExpiryCandidate, ResponseCodeEntry } from './model/authorizer-store.js';
export type { ReadinessCheck, ReadinessAnswer } from './model/readiness-check.js';
export type { OutboxDelivery, OutboxLease, OutboxRef, WebhookOutbox } from './model/webhook-outbox.js';
export { DID_METHODS, type DidMethod, type DidMethodsConfig, type DidMethodsConfigInput } from './model/did-methods-config.js';

// Clients, stores, events.
export { httpValidatorClient } from './clients/http-validator-client.js';
export { httpVerifierClient } from './clients/http-verifier-client.js';
export type { HttpServiceClientOptions } from './clients/http-service-options.js';
export { passThroughValidator, passThroughVerifier } from './clients/pass-through-clients.js';
export { ServiceCallError, isServiceCallError, type ServiceCallErrorCode } from './clients/service-call-error.js';
export { memoryStore, type MemoryStore, type MemoryStoreOptions, type MemoryStoreQuota } from './store/memory-store.js';
export type { AuthorizerEvent, AuthorizationEventType, EventHook } from './events/authorizer-event.js';
export type { Logger } from './events/logger.js';
export { LOG_EVENTS, type LogEventName, type LogEventSpec, type LogLevel } from './events/log-events.js';
export type {
  DecisionTelemetry,
  Instrumentation,
  RequestSpan,
  RequestTelemetry,
  RouteTelemetry,
  TelemetryAttributes,
  TelemetrySpan,
  TelemetryStep,
} from './events/instrumentation.js';

// The outbound-fetch policy every request the library sends to a URL it was handed goes through
// (webhook deliveries here; did:web documents and status lists in @vp-authorizer/local, which
// fetches through `@vp-authorizer/core/internal`).
export { outboundFetchPolicy, type OutboundFetchPolicy } from './outbound/outbound-fetch-policy.js';
export { OutboundFetchError, type OutboundFetchFailure } from './outbound/outbound-fetch-error.js';
export type { OutboundLookup, ResolvedAddress } from './outbound/outbound-lookup.js';
export { isPublicAddress } from './outbound/public-address.js';

// Errors: one table of codes, and the classes that carry them.
export {
  CODES,
  ERROR_TYPE_BASE,
  policyProblem,
  type Code,
  type CodeEntry,
  type ErrorClassCode,
  type ErrorCode,
  type HttpCodeEntry,
  type OAuthErrorValue,
  type PolicyCode,
  type PolicyCodeEntry,
  type PolicyCodeOf,
  type PolicyProducer,
  type ErrorClassCodeEntry,
} from './errors/error-codes.js';
export { AuthorizerError, isAuthorizerError, type FieldError } from './errors/authorizer-error.js';
export { ConfigError } from './errors/config-error.js';
export { StoreUnavailableError, isStoreUnavailableError } from './errors/store-unavailable-error.js';
export { SignerUnavailableError } from './errors/signer-unavailable-error.js';
export { StoreQuotaExceededError, isStoreQuotaExceededError } from './errors/store-quota-exceeded-error.js';
