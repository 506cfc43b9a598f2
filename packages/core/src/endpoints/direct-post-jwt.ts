import { defineEndpoint } from './endpoint.js';
import { directPostJwtFormSchema, receiveWalletResponse, walletResponseErrors, walletResponseResponses } from './direct-post.js';
import { json } from './respond.js';
import { AUTHORIZATION_ID } from './shared-schemas.js';

export const directPostJwtEndpoint = defineEndpoint({
  operationId: 'directPostJwt',
  name: 'wallet.direct_post_jwt',
  method: 'POST',
  path: '/openid4/vp/v1_0/{authorizationId}/direct_post.jwt',
  audience: 'wallet',
  summary: 'Receive an encrypted wallet response (response_mode direct_post.jwt)',
  pathParams: AUTHORIZATION_ID,
  body: { contentType: 'application/x-www-form-urlencoded', schema: directPostJwtFormSchema, required: true },
  responses: walletResponseResponses,
  errors: walletResponseErrors,
  run: ({ ctx, params, body }) => json(200, receiveWalletResponse(ctx, params[0]!, 'direct_post.jwt', body)),
});
