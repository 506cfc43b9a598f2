import * as v from 'valibot';
import { AuthorizerError } from '../errors/authorizer-error.js';
import type { InstanceRuntime } from '../runtime/instance-runtime.js';
import { defineEndpoint } from './endpoint.js';
import { json } from './respond.js';

export const trustAnchorSchema = v.pipe(
  v.object({
    anchorType: v.picklist(['root', 'account', 'instance']),
    certificate: v.pipe(v.string(), v.description('PEM certificate wallets must trust for this instance\'s request objects (the primary signing identity\'s anchor, or the first identity\'s that has one).')),
    certificates: v.optional(
      v.pipe(
        v.array(v.string()),
        v.description('Library extension: the distinct anchors of every signing identity of the instance, primary first (PEM); present when the instance has several signing identities.'),
      ),
    ),
  }),
  v.title('TrustAnchor'),
);
export type TrustAnchor = v.InferOutput<typeof trustAnchorSchema>;

/**
 * The certificate wallets must trust for this instance's request objects: the anchor of the
 * primary identity (or, when it has none, of the first identity that has one), and with several
 * identities every distinct anchor in `certificates`.
 */
export async function trustAnchor(instance: InstanceRuntime): Promise<TrustAnchor> {
  const identities = await instance.signingIdentities();
  const anchors = [...new Set(identities.flatMap(({ material }) => (material.trustAnchorPem ? [material.trustAnchorPem] : [])))];
  if (anchors.length === 0) {
    throw new AuthorizerError('trust_anchor.not_configured');
  }
  return { anchorType: instance.config.openId4vp.trustAnchor.anchor, certificate: anchors[0]!, ...(identities.length > 1 ? { certificates: anchors } : {}) };
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
