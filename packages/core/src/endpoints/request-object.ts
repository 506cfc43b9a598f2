import { AuthorizerError } from '../errors/authorizer-error.js';
import { assertAcceptsResponse } from '../authorization/accept-response.js';
import { commit, loadAnyInstance } from '../authorization/transitions.js';
import { checkWalletMetadata, parseWalletMetadataParam } from '../request/haip-rules.js';
import { signRequestObject } from '../request/request-object.js';
import { acceptedAlgorithms } from '../request/accepted-algorithms.js';
import { instanceOf, type AuthorizerContext } from '../runtime/authorizer-context.js';
import type { CoreResponse } from '../wire/core-request.js';
import * as v from 'valibot';
import { defineEndpoint, type EndpointInput } from './endpoint.js';
import { AUTHORIZATION_ID } from './shared-schemas.js';

/** What a wallet may send with request_uri_method=post (form) or as query parameters (GET). */
export const walletParametersSchema = v.object({
  wallet_metadata: v.optional(v.pipe(v.string(), v.description('The wallet\'s metadata as a JSON object text (OpenID4VP 1.0 section 5.10).'))),
  wallet_nonce: v.optional(v.pipe(v.string(), v.description('Echoed in the request object as wallet_nonce.'))),
});
export type WalletParameters = v.InferOutput<typeof walletParametersSchema>;

/** The signed request object (compact JWS). */
export const requestObjectSchema = v.pipe(v.string(), v.description('Signed request object (JAR), typ oauth-authz-req+jwt.'));

export interface RequestObjectParams {
  /** JSON string as posted by the wallet (request_uri_method=post). */
  walletMetadata?: WalletParameters['wallet_metadata'];
  walletNonce?: WalletParameters['wallet_nonce'];
}

/**
 * Serve the signed request object. It may be fetched more than once (wallets retry); the first
 * fetch moves `created` → `pending`.
 */
export async function getRequestObject(ctx: AuthorizerContext, id: string, params: RequestObjectParams): Promise<string> {
  const record = await loadAnyInstance(ctx, id);
  // DC API requests are handed out in the creation response; there is no request_uri for them.
  if (record.request.responseMode.startsWith('dc_api')) throw new AuthorizerError('authorization.not_found');
  assertAcceptsResponse(record);
  if (params.walletNonce !== undefined && !/^[\x21-\x7e]{1,256}$/.test(params.walletNonce)) {
    throw new AuthorizerError('request.invalid_body', { message: 'wallet_nonce must be 1-256 printable characters.' });
  }
  const instance = instanceOf(ctx, record.instanceId);
  const walletMetadata = parseWalletMetadataParam(params.walletMetadata);
  const algorithms = acceptedAlgorithms(instance.verifier, record.request.profile);
  if (walletMetadata) {
    const query = record.request.query;
    const formats = query.type === 'DCQL' ? [...new Set(query.dcql.credentials.map((c) => c.format))] : [];
    checkWalletMetadata(walletMetadata, {
      haip: record.request.profile === 'haip',
      clientIdPrefix: instance.config.openId4vp.clientIdPrefix,
      requireClientIdPrefix: instance.config.openId4vp.requireWalletClientIdPrefix,
      formats,
      algorithms,
    });
  }
  const jwt = await signRequestObject({
    record,
    signing: await instance.signing(),
    config: instance.config,
    ...(walletMetadata ? { walletMetadata } : {}),
    ...(params.walletNonce !== undefined ? { walletNonce: params.walletNonce } : {}),
    now: ctx.clock.now(),
    algorithms,
  });
  // A lost race here only means another fetch already moved it to pending.
  if (record.status === 'created') await commit(ctx, record, { status: 'pending' });
  return jwt;
}

/** Answer the request object for wallet parameters taken from the query (GET) or the form (POST). */
export async function serveRequestObject({ ctx, request, params }: EndpointInput, form?: Record<string, string>): Promise<CoreResponse> {
  const walletMetadata = form?.wallet_metadata ?? request.query.get('wallet_metadata') ?? undefined;
  const walletNonce = form?.wallet_nonce ?? request.query.get('wallet_nonce') ?? undefined;
  const jwt = await getRequestObject(ctx, params[0]!, { ...(walletMetadata !== undefined ? { walletMetadata } : {}), ...(walletNonce !== undefined ? { walletNonce } : {}) });
  return { status: 200, headers: [['content-type', 'application/oauth-authz-req+jwt'], ['cache-control', 'no-store']], body: jwt };
}

export const requestObjectResponses = {
  200: { description: 'The signed request object.', contentType: 'application/oauth-authz-req+jwt', schema: requestObjectSchema },
} as const;
/** 400: malformed wallet parameters, HAIP wallet metadata, an expired or answered authorization. */
export const requestObjectErrors = [400, 404, 503] as const;

export const getRequestObjectEndpoint = defineEndpoint({
  operationId: 'getAuthorizationRequestJwt',
  name: 'authorizations.request_object',
  method: 'GET',
  path: '/openid4/vp/v1_0/authorizations/{authorizationId}/jwt',
  audience: 'wallet',
  summary: 'Fetch the signed request object (request_uri)',
  description: 'The first fetch moves the authorization from created to pending; wallets may fetch it again.',
  pathParams: AUTHORIZATION_ID,
  query: walletParametersSchema,
  responses: requestObjectResponses,
  errors: requestObjectErrors,
  run: (input) => serveRequestObject(input),
});
