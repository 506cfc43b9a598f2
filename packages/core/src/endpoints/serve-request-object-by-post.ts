import { defineEndpoint } from './endpoint.js';
import { requestObjectErrors, requestObjectResponses, serveRequestObject, walletParametersSchema } from './serve-request-object.js';
import { AUTHORIZATION_ID } from './shared-schemas.js';

/** request_uri_method=post: wallet_metadata and wallet_nonce arrive as a form (an empty body is allowed). */
export const postRequestObjectEndpoint = defineEndpoint({
  operationId: 'postAuthorizationRequestJwt',
  name: 'authorizations.request_object',
  method: 'POST',
  path: '/openid4/vp/v1_0/authorizations/{authorizationId}/jwt',
  audience: 'wallet',
  summary: 'Fetch the signed request object with wallet parameters (request_uri_method=post)',
  pathParams: AUTHORIZATION_ID,
  body: { contentType: 'application/x-www-form-urlencoded', schema: walletParametersSchema, required: false },
  responses: requestObjectResponses,
  errors: requestObjectErrors,
  run: (input) => serveRequestObject(input, input.body ?? {}),
});
