import * as v from 'valibot';
import { AuthorizerError } from '../errors/authorizer-error.js';
import type { InstanceRuntime } from '../runtime/instance-runtime.js';
import { defineEndpoint } from './endpoint.js';
import { json } from './respond.js';

export const trustAnchorSchema = v.pipe(
  v.object({
    anchorType: v.picklist(['root', 'account', 'instance']),
    certificate: v.pipe(v.string(), v.description('PEM certificate wallets must trust for this instance\'s request objects.')),
  }),
  v.title('TrustAnchor'),
);
export type TrustAnchor = v.InferOutput<typeof trustAnchorSchema>;

/** The certificate wallets must trust for this instance's request objects. */
export async function trustAnchor(instance: InstanceRuntime): Promise<TrustAnchor> {
  const signing = await instance.signing();
  if (!signing.trustAnchorPem) {
    throw new AuthorizerError('trust_anchor.not_configured');
  }
  return { anchorType: instance.config.openId4vp.trustAnchor.anchor, certificate: signing.trustAnchorPem };
}

export const trustAnchorEndpoint = defineEndpoint({
  operationId: 'getTrustAnchorCertificate',
  name: 'instances.trust_anchor',
  method: 'GET',
  path: '/instances/oid4vp-trust-anchor',
  audience: 'rp',
  summary: 'The trust anchor of the calling instance\'s request-signing certificate',
  responses: {
    200: { description: 'The anchor certificate (PEM).', contentType: 'application/json', schema: trustAnchorSchema },
  },
  errors: [404],
  errorDescriptions: { 404: 'No trust anchor is configured for this instance.' },
  run: ({ instance }) => json(200, trustAnchor(instance)),
});
