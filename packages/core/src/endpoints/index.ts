import { authorizationEventsEndpoint } from './authorization-events.js';
import { authorizationStatusEndpoint } from './authorization-status.js';
import { createAuthorizationEndpoint } from './create-authorization.js';
import { credentialsEndpoint } from './credentials.js';
import { dcApiEndpoint } from './dc-api.js';
import { dcApiJwtEndpoint } from './dc-api-jwt.js';
import { directPostEndpoint } from './direct-post.js';
import { directPostJwtEndpoint } from './direct-post-jwt.js';
import { erasePersonalDataEndpoint } from './erase-personal-data.js';
import type { Endpoint } from './endpoint.js';
import { healthEndpoint } from './health.js';
import { healthReadyEndpoint } from './health-ready.js';
import { jwksEndpoint } from './jwks.js';
import { buildOpenApiDocument } from './openapi-document.js';
import { openApiEndpoint } from './openapi.js';
import { openIdConfigurationEndpoint } from './openid-configuration.js';
import { policyResponseEndpoint } from './policy-response.js';
import { postRequestObjectEndpoint } from './serve-request-object-by-post.js';
import { getRequestObjectEndpoint } from './serve-request-object.js';
import { resolveResponseCodeEndpoint } from './resolve-response-code.js';
import { trustAnchorEndpoint } from './trust-anchor.js';

/**
 * Every HTTP operation, relative to the mount point (design.md section 3). Routing, the
 * Authorizer's typed methods, the error format of a path and the OpenAPI document derive from it.
 */
export const ENDPOINTS: readonly Endpoint[] = [
  healthEndpoint,
  healthReadyEndpoint,
  createAuthorizationEndpoint,
  authorizationStatusEndpoint,
  authorizationEventsEndpoint,
  policyResponseEndpoint,
  credentialsEndpoint,
  erasePersonalDataEndpoint,
  getRequestObjectEndpoint,
  postRequestObjectEndpoint,
  resolveResponseCodeEndpoint,
  directPostEndpoint,
  directPostJwtEndpoint,
  dcApiEndpoint,
  dcApiJwtEndpoint,
  openIdConfigurationEndpoint,
  jwksEndpoint,
  trustAnchorEndpoint,
  openApiEndpoint(() => ENDPOINTS),
];

/** The OpenAPI 3.1 document of ENDPOINTS (no `servers`: paths are relative to the mount point). */
export const openApiDocument = () => buildOpenApiDocument(ENDPOINTS);

export type { Audience, Endpoint, EndpointInput, RequestBodySpec, ResponseSpec } from './endpoint.js';
export type { OpenApiDocument } from './openapi-document.js';
export { rpErrorSchema, walletErrorSchema, type RpErrorBody, type WalletErrorBody } from './error-bodies.js';
export type { CreateAuthorizationRequest, CreateAuthorizationResponse } from './create-authorization.js';
export type { StatusResponse } from './authorization-status.js';
export type { PolicyResponse } from './policy-response.js';
export type { CredentialsResponse } from './credentials.js';
export type { RequestObjectParams, WalletParameters } from './serve-request-object.js';
export type { WalletResponseAnswer } from './direct-post.js';
export type { DcApiAnswer } from './dc-api.js';
export type { ResolvedResponseCode } from './resolve-response-code.js';
export type { OpenIdConfiguration } from './openid-configuration.js';
export type { Jwks } from './jwks.js';
export type { TrustAnchor } from './trust-anchor.js';
