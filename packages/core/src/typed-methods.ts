import type { Authorizer } from './authorizer.js';
import { getStatus } from './endpoints/authorization-status.js';
import { createAuthorization, readCreateBody } from './endpoints/create-authorization.js';
import { getCredentials } from './endpoints/credentials.js';
import { dcApiJwtBodySchema, dcApiPlainBodySchema, receiveDcApiResponse } from './endpoints/dc-api.js';
import { receiveWalletResponse } from './endpoints/direct-post.js';
import { schemaOutput } from './endpoints/endpoint-input.js';
import { erasePersonalDataNow } from './endpoints/erase-personal-data.js';
import { getPolicyResponse } from './endpoints/policy-response.js';
import { readResolveBody, resolveResponseCode } from './endpoints/resolve-response-code.js';
import { getRequestObject } from './endpoints/serve-request-object.js';
import { AuthorizerError } from './errors/authorizer-error.js';
import type { AuthorizerContext } from './runtime/authorizer-context.js';
import { jsonCopy } from './store/json-copy.js';
import { checkJsonDepth } from './wire/parse-body.js';

/** The endpoint table's operations as methods of the Authorizer (documented there). */
export type TypedMethods = Pick<
  Authorizer,
  | 'createAuthorization'
  | 'getStatus'
  | 'getPolicyResponse'
  | 'getCredentials'
  | 'erasePersonalData'
  | 'getRequestObject'
  | 'submitWalletResponse'
  | 'submitDcApiResponse'
  | 'resolveResponseCode'
>;

/**
 * The typed methods: each validates its arguments as its endpoint validates the HTTP request (the
 * same body reader or schema) and calls the operation its endpoint calls, without routing, API
 * keys or rendering (the `instanceId` argument stands for the key).
 */
export function typedMethods(ctx: AuthorizerContext): TypedMethods {
  const instanceFor = (id: string) => {
    const instance = ctx.instances.get(id);
    if (!instance) throw new AuthorizerError('authorization.not_found', { message: 'Unknown instance.' });
    return instance;
  };
  return {
    // In-process bodies get the depth check an HTTP body gets when it is parsed (no JS recursion
    // may meet a hostile depth later: valibot, the store's copies, JSON encoding).
    createAuthorization: async (instanceId, body) => {
      const instance = instanceFor(instanceId);
      checkJsonDepth(body);
      return createAuthorization(ctx, instance, readCreateBody(body, instance));
    },
    getStatus: (instanceId, id) => getStatus(ctx, instanceFor(instanceId).id, id),
    // A store may hand out read-only records (the memory store's are frozen): the caller gets its own copy.
    getPolicyResponse: async (instanceId, id) => jsonCopy(await getPolicyResponse(ctx, instanceFor(instanceId).id, id)),
    getCredentials: async (instanceId, id) => jsonCopy(await getCredentials(ctx, instanceFor(instanceId).id, id)),
    erasePersonalData: (instanceId, id) => erasePersonalDataNow(ctx, instanceFor(instanceId).id, id),
    getRequestObject: (id, params = {}) => getRequestObject(ctx, id, params),
    submitWalletResponse: (id, mode, form) => receiveWalletResponse(ctx, id, mode, form),
    submitDcApiResponse: async (instanceId, id, mode, body) =>
      receiveDcApiResponse(ctx, instanceFor(instanceId).id, id, mode, mode === 'dc_api' ? schemaOutput(dcApiPlainBodySchema, body) : schemaOutput(dcApiJwtBodySchema, body)),
    resolveResponseCode: (instanceId, code, options = {}) =>
      resolveResponseCode(
        ctx,
        instanceFor(instanceId),
        readResolveBody({ response_code: code, ...(options.expectedAuthorizationId !== undefined ? { authorization_id: options.expectedAuthorizationId } : {}) }),
        options.idempotencyKey,
      ),
  };
}
