import { X509Certificate } from 'node:crypto';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { acceptedAlgorithms } from '../request/accepted-algorithms.js';
import { formatParameters } from '../request/client-metadata.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import type { InstanceRuntime } from '../runtime/instance-runtime.js';


/** Discovery metadata (wire API #3). Describes the first instance's endpoint; the rest is shared. */
export function openIdConfiguration(ctx: AuthorizerContext): Record<string, unknown> {
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

/** Public request-signing keys of every instance (never private parts). */
export async function jwks(ctx: AuthorizerContext): Promise<{ keys: Record<string, unknown>[] }> {
  const settled = await Promise.allSettled(
    [...ctx.instances.values()].map(async (instance) => {
      const signing = await instance.signing();
      const jwk = new X509Certificate(Buffer.from(signing.leafDer)).publicKey.export({ format: 'jwk' });
      return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, kid: signing.x509Hash, alg: signing.alg, use: 'sig', x5c: signing.x5c };
    }),
  );
  // One instance with a broken key must not take the endpoint down for the others.
  return { keys: settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [])) };
}

/** The certificate wallets must trust for this instance's request objects. */
export async function trustAnchor(instance: InstanceRuntime): Promise<{ anchorType: string; certificate: string }> {
  const signing = await instance.signing();
  if (!signing.trustAnchorPem) {
    throw new AuthorizerError('trust_anchor.not_configured');
  }
  return { anchorType: instance.config.openId4vp.trustAnchor.anchor, certificate: signing.trustAnchorPem };
}
