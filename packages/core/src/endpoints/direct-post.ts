import type { PolicyError } from '../model/policy-result.js';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { runWalletResponse } from '../authorization/wallet-response-pipeline.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import * as v from 'valibot';
import { defineEndpoint } from './endpoint.js';
import { json } from './respond.js';
import { AUTHORIZATION_ID } from './shared-schemas.js';

const field = (description: string) => v.optional(v.pipe(v.string(), v.description(description)));

/** A plain (unencrypted) authorization response: DCQL or Presentation Exchange, or the wallet's error. */
export const directPostFormSchema = v.objectWithRest(
  {
    vp_token: field('DCQL: a JSON object {<credential query id>: [presentation, …]}; Presentation Exchange: one presentation or a JSON array.'),
    presentation_submission: field('Presentation Exchange only: the submission as JSON text.'),
    id_token: field('SIOP ID token (responseType "vp_token id_token").'),
    state: field('The state of the request object.'),
    error: field('The wallet\'s OAuth error code (the user declined, for example).'),
    error_description: field('Text for the error.'),
  },
  v.string(),
);

/**
 * An encrypted authorization response (JWE to the request's client_metadata key), or the wallet's
 * error response, which OpenID4VP lets it send unencrypted (then `response` is absent).
 */
export const directPostJwtFormSchema = v.objectWithRest(
  {
    response: field('The authorization response as a JWE; absent from a wallet error response.'),
    error: field('The wallet\'s OAuth error code, sent unencrypted instead of a response.'),
    error_description: field('Text for the error.'),
    state: field('The state of the request object (with an error).'),
  },
  v.string(),
);

/** `{}` or, when a redirect URI is configured, where the wallet sends the user (with a response_code). */
export const walletResponseAnswerSchema = v.pipe(v.object({ redirect_uri: v.optional(v.string()) }), v.title('WalletResponseAccepted'));
export type WalletResponseAnswer = v.InferOutput<typeof walletResponseAnswerSchema>;

export const walletResponseResponses = {
  200: { description: 'Accepted; the outcome is stored for the RP.', contentType: 'application/json', schema: walletResponseAnswerSchema },
} as const;
export const walletResponseErrors = [404, 503] as const;

/**
 * Receive a wallet's direct_post / direct_post.jwt response: the pipeline (wallet-response-pipeline.ts)
 * decides; this renders. A presentation rejected by a policy is answered 400 `invalid_request`
 * unless `openId4vp.rejectedResponse` is 'redirect'; a wallet's own error response and a service
 * failure (`error`) get 200.
 */
export async function receiveWalletResponse(
  ctx: AuthorizerContext,
  id: string,
  endpoint: 'direct_post' | 'direct_post.jwt',
  form: Record<string, string>,
): Promise<WalletResponseAnswer> {
  const { redirectUri, refusal } = await runWalletResponse(ctx, { endpoint, id, fields: form });
  // The outcome (rejected) is already stored for the RP; the wallet learns it was not accepted.
  if (refusal) throw new AuthorizerError('authorization.presentation_rejected', { message: refusalMessage(refusal) });
  return redirectUri ? { redirect_uri: redirectUri } : {};
}

const STABLE_CODE = /^[A-Za-z0-9_.:-]{1,100}$/;

/** Names the first failed check by its stable code only: titles and details may echo presented data. */
function refusalMessage(refusal: PolicyError): string {
  return refusal.code && STABLE_CODE.test(refusal.code) ? `The presentation was not accepted (${refusal.code}).` : 'The presentation was not accepted.';
}

export const directPostEndpoint = defineEndpoint({
  operationId: 'directPost',
  name: 'wallet.direct_post',
  method: 'POST',
  path: '/openid4/vp/v1_0/{authorizationId}/direct_post',
  audience: 'wallet',
  summary: 'Receive a wallet response (response_mode direct_post)',
  description: 'A presentation a policy rejects answers 400 invalid_request (unless openId4vp.rejectedResponse is "redirect"); a wallet error response and a service failure answer 200.',
  pathParams: AUTHORIZATION_ID,
  body: { contentType: 'application/x-www-form-urlencoded', schema: directPostFormSchema, required: true },
  responses: walletResponseResponses,
  errors: walletResponseErrors,
  run: ({ ctx, params, body }) => json(200, receiveWalletResponse(ctx, params[0]!, 'direct_post', body)),
});
