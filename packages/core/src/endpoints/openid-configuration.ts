import * as v from 'valibot';
import { acceptedAlgorithms } from '../request/accepted-algorithms.js';
import { formatParameters } from '../request/client-metadata.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import type { InstanceRuntime } from '../runtime/instance-runtime.js';
import { defineEndpoint } from './endpoint.js';
import { json } from './respond.js';

const strings = v.array(v.string());

export const openIdConfigurationSchema = v.pipe(
  v.object({
    issuer: v.string(),
    authorization_endpoint: v.string(),
    jwks_uri: v.string(),
    scopes_supported: strings,
    response_types_supported: strings,
    response_modes_supported: strings,
    subject_types_supported: strings,
    id_token_signing_alg_values_supported: strings,
    request_object_signing_alg_values_supported: strings,
    request_parameter_supported: v.boolean(),
    request_uri_parameter_supported: v.boolean(),
    vp_formats_supported: v.record(v.string(), v.record(v.string(), v.unknown())),
  }),
  v.title('OpenIdConfiguration'),
);
export type OpenIdConfiguration = v.InferOutput<typeof openIdConfigurationSchema>;

/** Discovery metadata (wire API #3). Describes the first instance's endpoint; the rest is shared. */
export function openIdConfiguration(ctx: AuthorizerContext): OpenIdConfiguration {
  const first = ctx.instances.values().next().value as InstanceRuntime;
  return {
    issuer: ctx.publicBaseUrl,
    authorization_endpoint: first.config.openId4vp.authorizationEndpoint,
    jwks_uri: `${ctx.publicBaseUrl}/openid4/vp/v1_0/jwks`,
    scopes_supported: ['openid'],
    response_types_supported: ['vp_token', 'vp_token id_token'],
    response_modes_supported: ['direct_post', 'direct_post.jwt', 'dc_api', 'dc_api.jwt'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['ES256'],
    request_object_signing_alg_values_supported: ['ES256'],
    request_parameter_supported: false,
    request_uri_parameter_supported: true,
    // What the first instance's verifier accepts outside HAIP, as its requests advertise.
    vp_formats_supported: formatParameters(acceptedAlgorithms(first.verifier, undefined)),
  };
}

export const openIdConfigurationEndpoint = defineEndpoint({
  operationId: 'getWellKnownConfiguration',
  name: 'metadata.openid_configuration',
  method: 'GET',
  path: '/openid4/vp/v1_0/.well-known/openid-configuration',
  audience: 'public',
  summary: 'Discovery metadata',
  responses: {
    200: { description: 'OpenID provider metadata.', contentType: 'application/json', schema: openIdConfigurationSchema },
  },
  run: async ({ ctx }) => json(200, openIdConfiguration(ctx)),
});
