import type { RegistrationInfoEntry } from '../config/registration-certificates.js';
import type { AuthorizationRecord, AuthorizationRequestParameters } from '../model/authorization-record.js';
import type { SupportedAlgorithms } from '../model/verifier-client.js';
import type { InstanceConfig } from '../config/instance-config.js';
import { buildAuthorizeUrl } from './authorize-url.js';
import { isDcApiBody, transactionDataOf, verifierInfoOf, type CreateAuthorizationBody } from './create-authorization-body.js';
import { buildDigitalCredentialGetRequest, type DigitalCredentialGetRequest } from './dc-api-request.js';
import { generateEncryptionKey } from './encryption-key.js';
import { randomId } from '../crypto/secrets.js';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { clientIdFor, type SigningIdentity, type SigningMaterial } from './signing-material.js';

export type { CreateAuthorizationResponse, DirectPostAuthorizationResponse, DcApiAuthorizationResponse } from '../model/created-authorization.js';
import type { CreateAuthorizationResponse } from '../model/created-authorization.js';

/** Where the wallet fetches the request object (request_uri). */
export const requestUriFor = (publicBaseUrl: string, id: string): string => `${publicBaseUrl}/openid4/vp/v1_0/authorizations/${encodeURIComponent(id)}/jwt`;
/** Where the wallet (direct_post) or the RP (DC API) posts the response. */
export const responseUriFor = (publicBaseUrl: string, id: string, responseMode: string): string => `${publicBaseUrl}/openid4/vp/v1_0/${encodeURIComponent(id)}/${responseMode}`;

/**
 * Build the authorization record and the 201 body from a validated (and, for HAIP, enforced)
 * create body. Pure apart from randomness: the caller stores the record.
 */
export async function buildAuthorization(args: {
  id: string;
  instanceId: string;
  body: CreateAuthorizationBody;
  config: InstanceConfig;
  signing: SigningMaterial;
  /** Every signing identity of the instance, primary first (multi-signed DC API requests). */
  signers?: SigningIdentity[];
  /** The instance's registration certificates (verifier_info of signed DC API requests). */
  registrationInfo?: readonly RegistrationInfoEntry[];
  publicBaseUrl: string;
  now: number;
  /** The verifier's accepted algorithms (acceptedAlgorithms); default ES256 only. */
  algorithms?: SupportedAlgorithms;
  /** Origins unsigned DC API responses may come from without expectedOrigins (the instance's dcApiAllowedOrigins); default `config.openId4vp.dcApi.allowedOrigins`, else none. */
  dcApiAllowedOrigins?: readonly string[];
}): Promise<{ record: AuthorizationRecord; response: CreateAuthorizationResponse }> {
  const { id, instanceId, body, config, signing, now, algorithms } = args;
  const publicBaseUrl = args.publicBaseUrl.replace(/\/+$/, '');
  const oid = config.openId4vp;
  const dcApi = isDcApiBody(body);
  const encrypted = body.responseMode === 'direct_post.jwt' || body.responseMode === 'dc_api.jwt';
  const unsignedDcApi = dcApi && body.protocol === 'openid4vp-v1-unsigned';
  // The response origin is checked against expectedOrigins or the instance's allowed origins;
  // with neither there would be nothing to check it against, so refuse now rather than accept any.
  const allowedOrigins = args.dcApiAllowedOrigins ?? oid.dcApi.allowedOrigins ?? [];
  if (unsignedDcApi && body.expectedOrigins === undefined && allowedOrigins.length === 0) {
    throw new AuthorizerError('request.expected_origins_required', {
      errors: [{ pointer: '/expectedOrigins', detail: 'give expectedOrigins: this instance allows no origin by default (openId4vp.dcApi.allowedOrigins is [])' }],
    });
  }

  const request: AuthorizationRequestParameters = {
    query: body.query,
    responseMode: body.responseMode,
    responseType: body.responseType,
    nonce: body.nonce ?? randomId(32),
  };
  if (!unsignedDcApi) request.clientId = clientIdFor(oid.clientIdPrefix, signing);
  if (body.profile) request.profile = body.profile;
  const transactionData = transactionDataOf(body);
  if (transactionData) request.transactionData = transactionData;
  const verifierInfo = verifierInfoOf(body);
  if (verifierInfo) request.verifierInfo = verifierInfo;
  if (body.walletMetadata) request.walletMetadata = body.walletMetadata;
  // Checked against the outbound policy by the caller (create-authorization).
  if (body.webhookUrl !== undefined) request.webhookUrl = body.webhookUrl;
  if (dcApi) {
    request.protocol = body.protocol;
    if (body.expectedOrigins) request.expectedOrigins = body.expectedOrigins;
  } else {
    request.state = randomId(32);
    request.responseUri = responseUriFor(publicBaseUrl, id, body.responseMode);
    const redirectUri = body.redirectUri ?? oid.redirectUri;
    if (redirectUri !== undefined) request.redirectUri = redirectUri;
  }

  const record: AuthorizationRecord = {
    id,
    instanceId,
    version: 1,
    // The DC API request is handed out in the 201 itself, so the wallet already "has" it.
    status: dcApi ? 'pending' : 'created',
    createdAt: now,
    updatedAt: now,
    expiresAt: now + oid.expiresAfter,
    request,
    policyResults: [],
    credentials: [],
  };
  if (encrypted) record.encryptionKey = await generateEncryptionKey();

  const common = { authorizationId: id, expiresAt: new Date(record.expiresAt).toISOString(), nonce: request.nonce };
  if (dcApi) {
    const digitalCredentialGetRequest = await buildDigitalCredentialGetRequest({
      record,
      signing,
      ...(args.signers ? { signers: args.signers } : {}),
      ...(args.registrationInfo ? { registrationInfo: args.registrationInfo } : {}),
      config,
      now,
      ...(algorithms ? { algorithms } : {}),
    });
    return { record, response: { ...common, digitalCredentialGetRequest, responseUrl: responseUriFor(publicBaseUrl, id, body.responseMode) } };
  }
  const authorizeUrl = buildAuthorizeUrl(oid.authorizationEndpoint, {
    clientId: request.clientId!,
    requestUri: requestUriFor(publicBaseUrl, id),
    requestUriMethod: oid.requestObject.methods.includes('POST') ? 'post' : 'get',
  });
  return { record, response: { ...common, authorizeUrl, authorizationEndpoint: oid.authorizationEndpoint } };
}
