import type { RegistrationInfoEntry } from '../config/registration-certificates.js';
import type { AuthorizationRecord, AuthorizationRequestParameters } from '../model/authorization-record.js';
import type { SupportedAlgorithms } from '../model/verifier-client.js';
import type { InstanceConfig } from '../config/instance-config.js';
import { buildAuthorizeUrl } from './authorize-url.js';
import { buildAnnexCRequest } from './annex-c-request.js';
import type { ReaderAuthSigner } from '../crypto/reader-authentication.js';
import { bodyProtocols, isDcApiBody, transactionDataOf, verifierInfoOf, type CreateAuthorizationBody } from './create-authorization-body.js';
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
 * The origin a readerAuth is signed for. The ReaderAuthentication holds the SessionTranscript,
 * which names the page's origin, and a DocRequest carries one readerAuth: a request that may be
 * answered from several origins cannot be signed for all of them.
 */
function readerAuthOrigin(origins: readonly string[]): string {
  if (origins.length === 1) return origins[0]!;
  throw new AuthorizerError('request.reader_auth_needs_one_origin', {
    errors: [{
      pointer: '/expectedOrigins',
      detail: `readerAuth signs the SessionTranscript, which names the page's origin: give exactly one expectedOrigins (the page calling navigator.credentials.get); this request allows ${origins.length}`,
      code: 'request.reader_auth_needs_one_origin',
    }],
  });
}

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
  /** org-iso-mdoc: signs each DocRequest's ReaderAuthentication (the instance's readerAuth); absent, no readerAuth is sent. */
  readerAuth?: () => Promise<ReaderAuthSigner>;
}): Promise<{ record: AuthorizationRecord; response: CreateAuthorizationResponse }> {
  const { id, instanceId, body, config, signing, now, algorithms } = args;
  const publicBaseUrl = args.publicBaseUrl.replace(/\/+$/, '');
  const oid = config.openId4vp;
  const dcApi = isDcApiBody(body);
  const encrypted = body.responseMode === 'direct_post.jwt' || body.responseMode === 'dc_api.jwt';
  const protocols = dcApi ? bodyProtocols(body) : [];
  const signedDcApi = protocols.some((p) => p === 'openid4vp-v1-signed' || p === 'openid4vp-v1-multisigned');
  // The response origin is checked against expectedOrigins or the instance's allowed origins;
  // with neither there would be nothing to check it against, so refuse now rather than accept any.
  // (Signed requests require expectedOrigins already.)
  const allowedOrigins = args.dcApiAllowedOrigins ?? oid.dcApi.allowedOrigins ?? [];
  if (dcApi && body.expectedOrigins === undefined && allowedOrigins.length === 0) {
    throw new AuthorizerError('request.expected_origins_required', {
      errors: [{ pointer: '/expectedOrigins', detail: 'give expectedOrigins: this instance allows no origin by default (openId4vp.dcApi.allowedOrigins is [])' }],
    });
  }

  // Annex C: a fresh nonce and recipient key; the 201's nonce is then the base64url of its bytes,
  // and an OpenID4VP request offered beside it carries the same nonce.
  const offersAnnexC = dcApi && protocols.includes('org-iso-mdoc');
  const readerAuth = offersAnnexC && args.readerAuth ? { origin: readerAuthOrigin(body.expectedOrigins ?? allowedOrigins), signer: await args.readerAuth() } : undefined;
  const annexC = offersAnnexC && body.query.type === 'DCQL' ? await buildAnnexCRequest(body.query.dcql, readerAuth) : undefined;
  const request: AuthorizationRequestParameters = {
    query: body.query,
    responseMode: body.responseMode,
    responseType: body.responseType,
    nonce: annexC?.nonce ?? body.nonce ?? randomId(32),
  };
  if (!dcApi || signedDcApi) request.clientId = clientIdFor(oid.clientIdPrefix, signing);
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
    if (protocols.length > 1) request.protocols = protocols;
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
  // The OpenID4VP key only where an OpenID4VP response can be encrypted to it.
  if (encrypted && (!dcApi || protocols.some((p) => p !== 'org-iso-mdoc'))) record.encryptionKey = await generateEncryptionKey();
  if (annexC) record.annexC = annexC.recipient;

  const common = { authorizationId: id, expiresAt: new Date(record.expiresAt).toISOString(), nonce: request.nonce };
  if (dcApi) {
    const requests: DigitalCredentialGetRequest[] = [];
    for (const protocol of protocols) {
      requests.push(
        await buildDigitalCredentialGetRequest({
          record,
          signing,
          ...(args.signers ? { signers: args.signers } : {}),
          ...(args.registrationInfo ? { registrationInfo: args.registrationInfo } : {}),
          config,
          now,
          ...(algorithms ? { algorithms } : {}),
          protocol,
          ...(annexC ? { annexC } : {}),
        }),
      );
    }
    // A body that listed `protocols` also gets the whole list back, in its order.
    const listed = body.protocols !== undefined ? { digitalCredentialGetRequests: requests } : {};
    return { record, response: { ...common, digitalCredentialGetRequest: requests[0]!, ...listed, responseUrl: responseUriFor(publicBaseUrl, id, body.responseMode) } };
  }
  const authorizeUrl = buildAuthorizeUrl(oid.authorizationEndpoint, {
    clientId: request.clientId!,
    requestUri: requestUriFor(publicBaseUrl, id),
    requestUriMethod: oid.requestObject.methods.includes('POST') ? 'post' : 'get',
  });
  return { record, response: { ...common, authorizeUrl, authorizationEndpoint: oid.authorizationEndpoint } };
}
