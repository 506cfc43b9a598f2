import type { PolicyError } from '../model/policy-result.js';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { acceptResponse, assertAcceptsResponse, settleOwedClaim } from '../authorization/accept-response.js';
import { readResponsePayload } from '../authorization/response-payload.js';
import { loadAnyInstance } from '../authorization/transitions.js';
import { constantTimeEqual } from '../crypto/secrets.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import * as v from 'valibot';
import { defineEndpoint } from './endpoint.js';
import { formBody, json } from './respond.js';
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

/** An encrypted authorization response (JWE to the request's client_metadata key). */
export const directPostJwtFormSchema = v.objectWithRest({ response: v.pipe(v.string(), v.description('The authorization response as a JWE.')) }, v.string());

/** `{}` or, when a redirect URI is configured, where the wallet sends the user (with a response_code). */
export const walletResponseAnswerSchema = v.pipe(v.object({ redirect_uri: v.optional(v.string()) }), v.title('WalletResponseAccepted'));
export type WalletResponseAnswer = v.InferOutput<typeof walletResponseAnswerSchema>;

export const walletResponseResponses = {
  200: { description: 'Accepted; the outcome is stored for the RP.', contentType: 'application/json', schema: walletResponseAnswerSchema },
} as const;
export const walletResponseErrors = [404, 503] as const;

/**
 * Receive a wallet's direct_post / direct_post.jwt response. Everything that is wrong with the
 * request itself (mode, state, undecryptable JWE) is refused with a 400 and changes nothing, so a
 * correct response may still follow; once claimed, the authorization ends in a terminal status
 * (or, when the store failed, is released for a retry: see acceptResponse). A presentation
 * rejected by a policy is answered 400 `invalid_request` unless `openId4vp.rejectedResponse` is
 * 'redirect'; a wallet's own error response and a service failure (`error`) get 200.
 */
export async function receiveWalletResponse(
  ctx: AuthorizerContext,
  id: string,
  endpoint: 'direct_post' | 'direct_post.jwt',
  form: Record<string, string>,
): Promise<WalletResponseAnswer> {
  // A claim this process still owes back (store outage) is released before the response is judged.
  const record = await settleOwedClaim(ctx, await loadAnyInstance(ctx, id));
  const mode = record.request.responseMode;
  // The endpoint must be the one in the request's response_uri (a plain error may come to either).
  if ((mode !== 'direct_post' && mode !== 'direct_post.jwt') || (endpoint !== mode && form.error === undefined)) {
    throw new AuthorizerError('authorization.wrong_response_mode');
  }
  assertAcceptsResponse(record);
  // The wallet can only know response_uri from the request object: nothing was asked yet.
  if (record.status === 'created') throw new AuthorizerError('authorization.not_awaiting_response');

  const { payload, state, encryptionJwk } = await readResponsePayload(record, form);
  const expectedState = record.request.state;
  if (expectedState !== undefined && (typeof state !== 'string' || !constantTimeEqual(state, expectedState))) {
    throw new AuthorizerError('authorization.state_mismatch');
  }
  const { redirectUri, refusal } = await acceptResponse(ctx, record, payload, { encryptionJwk });
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
  run: ({ ctx, request, params }) => json(200, receiveWalletResponse(ctx, params[0]!, 'direct_post', formBody(request))),
});
