import { dcApiErrors, dcApiJwtBodySchema, dcApiResponses, receiveDcApiResponse } from './dc-api.js';
import { defineEndpoint } from './endpoint.js';
import { json } from './respond.js';
import { AUTHORIZATION_ID } from './shared-schemas.js';

export const dcApiJwtEndpoint = defineEndpoint({
  operationId: 'dcApiJwt',
  name: 'dc_api_jwt',
  method: 'POST',
  path: '/openid4/vp/v1_0/{authorizationId}/dc_api.jwt',
  audience: 'rp',
  summary: 'Submit an encrypted DC API response (response_mode dc_api.jwt)',
  pathParams: AUTHORIZATION_ID,
  body: { contentType: 'application/json', schema: dcApiJwtBodySchema, required: true },
  responses: dcApiResponses,
  errors: dcApiErrors,
  run: ({ ctx, params, instance, body }) => json(200, receiveDcApiResponse(ctx, instance.id, params[0]!, 'dc_api.jwt', body)),
});
