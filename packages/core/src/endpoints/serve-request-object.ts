import { AuthorizerError } from '../errors/authorizer-error.js';
import { assertAcceptsResponse } from '../authorization/accept-response.js';
import { commit, loadAnyInstance } from '../authorization/transitions.js';
import { checkWalletMetadata, parseWalletMetadataParam } from '../request/haip-rules.js';
import { signRequestObject } from '../request/sign-request-object.js';
import { RequestObjectSigningBudget } from '../request/request-object-signing-budget.js';
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
  /** The HTTP method the wallet used; checked against the instance's `openId4vp.requestObject.methods` (in-process calls leave it out). */
  method?: 'GET' | 'POST';
  /** JSON string as posted by the wallet (request_uri_method=post). */
  walletMetadata?: WalletParameters['wallet_metadata'];
  walletNonce?: WalletParameters['wallet_nonce'];
}

/** 405 with the methods this instance serves the request object by (the Allow header). */
class RequestObjectMethodNotAllowed extends AuthorizerError {
  readonly allow: string[];
  constructor(methods: string[]) {
    super('request.method_not_allowed', { message: `This verifier serves the request object by ${methods.join(' and ')} only.` });
    // Never HEAD: the fetch has an effect, so routing refuses HEAD here (getHasEffect).
    this.allow = methods;
  }
}

/** One budget per authorizer (its context), so that two authorizers in a process count apart. */
const signingBudgets = new WeakMap<AuthorizerContext, RequestObjectSigningBudget>();
const signingBudgetOf = (ctx: AuthorizerContext): RequestObjectSigningBudget => {
  let budget = signingBudgets.get(ctx);
  if (!budget) signingBudgets.set(ctx, (budget = new RequestObjectSigningBudget()));
  return budget;
};

/**
 * Serve the signed request object. The first fetch moves `created` → `pending`. By default it may
 * be fetched again (wallets retry); with `openId4vp.requestObject.singleFetch` only the fetch that
 * wins that transition gets it. The transition is the store's compare-and-set on the record's
 * version, so exactly one fetch wins across processes sharing a store.
 */
export async function getRequestObject(ctx: AuthorizerContext, id: string, params: RequestObjectParams): Promise<string> {
  const record = await loadAnyInstance(ctx, id);
  // DC API requests are handed out in the creation response; there is no request_uri for them.
  if (record.request.responseMode.startsWith('dc_api')) throw new AuthorizerError('authorization.not_found');
  assertAcceptsResponse(record, ctx.clock.now());
  const instance = instanceOf(ctx, record.instanceId);
  const delivery = instance.config.openId4vp.requestObject;
  if (params.method !== undefined && !delivery.methods.includes(params.method)) throw new RequestObjectMethodNotAllowed(delivery.methods);
  if (delivery.singleFetch && record.status !== 'created') throw new AuthorizerError('authorization.request_object_already_fetched');
  if (params.walletNonce !== undefined && !/^[\x21-\x7e]{1,256}$/.test(params.walletNonce)) {
    throw new AuthorizerError('request.invalid_body', { message: 'wallet_nonce must be 1-256 printable characters.' });
  }
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
  // Checked last, so that only a fetch that would be signed spends from the budget.
  if (!signingBudgetOf(ctx).spend(`${record.instanceId}/${record.id}`)) throw new AuthorizerError('authorization.request_object_fetch_limit');
  const jwt = await signRequestObject({
    record,
    signing: await instance.signingFor(record.request.clientId),
    config: instance.config,
    registrationInfo: instance.registrationInfo,
    ...(walletMetadata ? { walletMetadata } : {}),
    ...(params.walletNonce !== undefined ? { walletNonce: params.walletNonce } : {}),
    now: ctx.clock.now(),
    algorithms,
  });
  // The first fetch takes the authorization up: from now on it is kept for the retention (counted
  // from its creation, as for every other record), no longer only until shortly after its expiry.
  const retained = record.createdAt + instance.recordTtlMs - ctx.clock.now();
  if (record.status === 'created' && !(await commit(ctx, record, { status: 'pending' }, Math.max(1, retained))) && delivery.singleFetch) {
    // Lost the compare-and-set: another fetch (or a response, or the expiry) changed the record first.
    const current = await loadAnyInstance(ctx, id);
    assertAcceptsResponse(current, ctx.clock.now());
    throw new AuthorizerError('authorization.request_object_already_fetched');
  }
  // Without singleFetch a lost race only means another fetch already moved it to pending.
  return jwt;
}

/** Answer the request object for wallet parameters taken from the query (GET) or the form (POST). */
export async function serveRequestObject({ ctx, request, params }: EndpointInput<unknown>, form?: WalletParameters): Promise<CoreResponse> {
  const walletMetadata = form?.wallet_metadata ?? request.query.get('wallet_metadata') ?? undefined;
  const walletNonce = form?.wallet_nonce ?? request.query.get('wallet_nonce') ?? undefined;
  const method = request.method.toUpperCase() === 'POST' ? 'POST' : 'GET';
  const jwt = await getRequestObject(ctx, params[0]!, { method, ...(walletMetadata !== undefined ? { walletMetadata } : {}), ...(walletNonce !== undefined ? { walletNonce } : {}) });
  return { status: 200, headers: [['content-type', 'application/oauth-authz-req+jwt'], ['cache-control', 'no-store']], body: jwt };
}

export const requestObjectResponses = {
  200: { description: 'The signed request object.', contentType: 'application/oauth-authz-req+jwt', schema: requestObjectSchema },
} as const;
/**
 * 400: malformed wallet parameters, HAIP wallet metadata, an expired or answered authorization, a
 * second fetch under singleFetch. 405: a method the instance does not serve the request object by.
 */
export const requestObjectErrors = [400, 404, 405, 503] as const;

export const getRequestObjectEndpoint = defineEndpoint({
  operationId: 'getAuthorizationRequestJwt',
  name: 'authorizations.request_object',
  method: 'GET',
  path: '/openid4/vp/v1_0/authorizations/{authorizationId}/jwt',
  getHasEffect: true,
  audience: 'wallet',
  summary: 'Fetch the signed request object (request_uri)',
  description:
    'The first fetch moves the authorization from created to pending. Wallets may fetch it again unless the instance serves it once (openId4vp.requestObject.singleFetch: a second fetch answers 400); an instance may also refuse GET or POST (405). HEAD answers 405 and changes nothing: the fetch has an effect, and HEAD must not (a link scanner sending it would otherwise use up the fetch).',
  pathParams: AUTHORIZATION_ID,
  query: walletParametersSchema,
  responses: requestObjectResponses,
  errors: requestObjectErrors,
  run: (input) => serveRequestObject(input),
});
