import type { operations } from './generated/authorizer-api.js';

type JsonBody<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type JsonAnswer<O, S extends number> = O extends { responses: { [K in S]: { content: { 'application/json': infer R } } } } ? R : never;

/** The body of `POST …/authorizations`: a DCQL or Presentation Exchange query, a response mode, … */
export type CreateAuthorizationBody = JsonBody<operations['createAuthorization']>;
/** Its 201 answer: `authorizeUrl` for the redirect modes, `digitalCredentialGetRequest` for the DC API modes. */
export type CreatedAuthorization = JsonAnswer<operations['createAuthorization'], 201>;
/** `{status, processing?}`: the body of `GET …/status`, and the data of each event of the stream. */
export type AuthorizationStatus = JsonAnswer<operations['getAuthorizationStatus'], 200>;
/** A status after which nothing changes. */
export type TerminalStatus = 'authorized' | 'rejected' | 'error' | 'expired';
export type PolicyResponse = JsonAnswer<operations['getPolicyResponse'], 200>;
export type CredentialsResponse = JsonAnswer<operations['getCredentials'], 200>;
/** The body of `POST …/response-code/resolve`: the code, and the id kept in the user's session. */
export type ResolveResponseCodeBody = JsonBody<operations['resolveResponseCode']>;
export type ResolvedResponseCode = JsonAnswer<operations['resolveResponseCode'], 200>;
export type DcApiBody = JsonBody<operations['dcApi']>;
export type DcApiJwtBody = JsonBody<operations['dcApiJwt']>;
export type DcApiResult = JsonAnswer<operations['dcApi'], 200>;
export type TrustAnchorCertificate = JsonAnswer<operations['getTrustAnchorCertificate'], 200>;
