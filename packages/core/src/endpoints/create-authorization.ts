import * as v from 'valibot';
import { randomId } from '../crypto/secrets.js';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { acceptedAlgorithms } from '../request/accepted-algorithms.js';
import { buildAuthorization } from '../request/build-authorization.js';
import { createAuthorizationBodySchema, isDcApiBody, parseCreateAuthorizationBody, type CreateAuthorizationBody } from '../request/create-authorization-body.js';
import { isAllowedRedirectUri } from '../config/redirect-uri.js';
import { enforceHaipOnCreate } from '../request/haip-rules.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import type { InstanceRuntime } from '../runtime/instance-runtime.js';
import { defineEndpoint } from './endpoint.js';
import { json } from './respond.js';

export {
  createAuthorizationResponseSchema,
  digitalCredentialGetRequestSchema,
  type CreateAuthorizationResponse,
  type DirectPostAuthorizationResponse,
  type DcApiAuthorizationResponse,
} from '../model/created-authorization.js';
import { createAuthorizationResponseSchema, type CreateAuthorizationResponse } from '../model/created-authorization.js';

/** The create body as a caller writes it (`responseType` may be left out). */
export type CreateAuthorizationRequest = v.InferInput<typeof createAuthorizationBodySchema>;

/** The create body as `instance` takes it: the schema, then the cross-field rules (all problems at once). */
export const readCreateBody = (body: unknown, instance: InstanceRuntime): CreateAuthorizationBody =>
  parseCreateAuthorizationBody(body, { requireTransactionDataCredentialIds: instance.config.openId4vp.transactionData.requireCredentialIds });

/** Enforce HAIP on a validated body, store the record, answer the 201 body. */
export async function createAuthorization(ctx: AuthorizerContext, instance: InstanceRuntime, parsed: CreateAuthorizationBody): Promise<CreateAuthorizationResponse> {
  if (parsed.webhookUrl !== undefined) checkRequestWebhookUrl(ctx, instance, parsed.webhookUrl);
  if (!isDcApiBody(parsed) && parsed.redirectUri !== undefined) checkRequestRedirectUri(instance, parsed.redirectUri);
  const signing = await instance.signing();
  const algorithms = acceptedAlgorithms(instance.verifier, parsed.profile);
  if (parsed.profile === 'haip') enforceHaipOnCreate(parsed, { clientIdPrefix: instance.config.openId4vp.clientIdPrefix, signers: instance.haipSigners, algorithms });
  const now = ctx.clock.now();
  const { record, response } = await buildAuthorization({
    id: randomId(16),
    instanceId: instance.id,
    body: parsed,
    config: instance.config,
    signing,
    // Retired identities sign nothing new (rotation): multi-signed requests carry the active ones.
    signers: (await instance.signingIdentities()).filter((identity) => !identity.retired),
    registrationInfo: instance.registrationInfo,
    publicBaseUrl: ctx.publicBaseUrl,
    now,
    algorithms,
    dcApiAllowedOrigins: instance.dcApiAllowedOrigins,
    ...(instance.readerAuth ? { readerAuth: instance.readerAuth } : {}),
  });
  // A record no wallet has fetched yet is kept until shortly after its expiry; the first fetch of
  // its request object gives it the retention (processing grace + retention past its expiry) so
  // that the RP can read the outcome. DC API requests are handed out now: they get it at once.
  await ctx.store.create(record, record.status === 'created' ? instance.unfetchedTtlMs : instance.recordTtlMs);
  ctx.emit({ type: 'authorization.created', instanceId: record.instanceId, authorizationId: record.id, status: record.status, at: now }, record);
  if (record.status === 'pending') {
    ctx.emit({ type: 'authorization.pending', instanceId: record.instanceId, authorizationId: record.id, status: 'pending', previousStatus: 'created', at: now }, record);
  }
  return response;
}

/**
 * A relying party's own webhook URL: only where the instance has a secret to sign with, and only
 * a destination the outbound-fetch policy allows (its checks that need no network; the resolved
 * addresses are checked at every delivery). The URL is never echoed (it may carry a token).
 */
function checkRequestWebhookUrl(ctx: AuthorizerContext, instance: InstanceRuntime, url: string): void {
  if (!instance.webhooks) {
    throw new AuthorizerError('webhook.not_configured', { errors: [{ pointer: '/webhookUrl', detail: 'this instance has no webhooks configured (webhooks.secret)', code: 'webhook.not_configured' }] });
  }
  if (!ctx.webhooks.acceptsUrl(url)) {
    throw new AuthorizerError('webhook.url_refused', { errors: [{ pointer: '/webhookUrl', detail: 'webhookUrl must be an https URL on the default port to a public DNS name, without credentials', code: 'webhook.url_refused' }] });
  }
}

/** A relying party's own redirect URI: only one the instance's `allowedRedirectUris` allows (any, without a list). */
function checkRequestRedirectUri(instance: InstanceRuntime, uri: string): void {
  const allowList = instance.config.openId4vp.allowedRedirectUris;
  if (isAllowedRedirectUri(uri, allowList)) return;
  throw new AuthorizerError('request.redirect_uri_not_allowed', {
    errors: [{ pointer: '/redirectUri', detail: 'redirectUri is neither listed in this instance\'s openId4vp.allowedRedirectUris nor on an origin listed there', code: 'request.redirect_uri_not_allowed' }],
  });
}

export const createAuthorizationEndpoint = defineEndpoint<CreateAuthorizationBody>({
  operationId: 'createAuthorization',
  name: 'authorizations.create',
  method: 'POST',
  path: '/openid4/vp/v1_0/authorizations',
  audience: 'rp',
  summary: 'Create an authorization request',
  description:
    'Direct post modes answer an authorizeUrl for the wallet (QR code or deep link); DC API modes answer the digitalCredentialGetRequest for the browser. HAIP rule violations answer 400 with a stable code per rule (haip.*); a Presentation Exchange filter pattern that cannot run in linear time answers 400 request.unsupported_pattern with its pointer.',
  body: { contentType: 'application/json', schema: createAuthorizationBodySchema, required: true, parse: (value, { instance }) => readCreateBody(value, instance) },
  responses: {
    201: { description: 'Created.', contentType: 'application/json', schema: createAuthorizationResponseSchema },
  },
  errors: [429, 503],
  errorDescriptions: {
    429: 'This instance holds as many authorizations as the store allows it (`store.quota_exceeded`, the memory store\'s per-instance quota); `Retry-After` says when its oldest one leaves the store.',
  },
  run: ({ ctx, instance, body }) => json(201, createAuthorization(ctx, instance, body)),
});
