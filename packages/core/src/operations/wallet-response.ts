import { AuthorizerError } from '../errors/authorizer-error.js';
import { acceptResponse, assertAcceptsResponse } from '../authorization/accept-response.js';
import type { WalletPayload } from '../authorization/evaluate-response.js';
import type { AuthorizationRecord } from '../authorization/authorization-record.js';
import { loadAnyInstance } from '../authorization/transitions.js';
import { constantTimeEqual } from '../crypto/secrets.js';
import { jwkThumbprint } from '../crypto/session-transcript.js';
import { decryptAuthorizationResponse } from '../response/decrypt-response.js';
import { issueResponseCode } from '../response-code/response-code.js';
import { instanceOf, type AuthorizerContext } from '../runtime/authorizer-context.js';

export const ENCRYPTION_ENC_VALUES = ['A128GCM', 'A256GCM'] as const;

/**
 * Receive a wallet's direct_post / direct_post.jwt response. Everything that is wrong with the
 * request itself (mode, state, undecryptable JWE) is refused with a 400 and changes nothing, so a
 * correct response may still follow; once claimed, the authorization ends in a terminal status.
 */
export async function receiveWalletResponse(
  ctx: AuthorizerContext,
  id: string,
  endpoint: 'direct_post' | 'direct_post.jwt',
  form: Record<string, string>,
): Promise<{ redirect_uri?: string }> {
  const record = await loadAnyInstance(ctx, id);
  const mode = record.request.responseMode;
  if (mode !== 'direct_post' && mode !== 'direct_post.jwt') throw new AuthorizerError('authorization.wrong_response_mode');
  assertAcceptsResponse(record);

  const { payload, state, encrypted } = await readPayload(record, endpoint, form);
  const expectedState = record.request.state;
  if (expectedState !== undefined && (typeof state !== 'string' || !constantTimeEqual(state, expectedState))) {
    throw new AuthorizerError('authorization.state_mismatch');
  }
  const thumbprint = encrypted && record.encryptionKey ? await jwkThumbprint(record.encryptionKey.publicJwk) : null;
  const done = await acceptResponse(ctx, record, payload, { jwkThumbprint: thumbprint });

  const redirectUri = record.request.redirectUri;
  if (!redirectUri) return {};
  const ttl = instanceOf(ctx, record.instanceId).config.openId4vp.responseCodeTtl;
  return { redirect_uri: await issueResponseCode(ctx, done, redirectUri, ttl) };
}

async function readPayload(
  record: AuthorizationRecord,
  endpoint: 'direct_post' | 'direct_post.jwt',
  form: Record<string, string>,
): Promise<{ payload: WalletPayload; state: unknown; encrypted: boolean }> {
  const mode = record.request.responseMode;
  if (form.response !== undefined) {
    if (endpoint !== 'direct_post.jwt' || mode !== 'direct_post.jwt' || !record.encryptionKey) throw new AuthorizerError('authorization.wrong_response_mode');
    const { payload } = await decryptAuthorizationResponse(form.response, record.encryptionKey, { allowedEnc: ENCRYPTION_ENC_VALUES });
    return { payload: toWalletPayload(payload), state: payload.state, encrypted: true };
  }
  // An unencrypted error response is allowed in direct_post.jwt mode too (OpenID4VP 8.3.1).
  const isError = form.error !== undefined;
  if (endpoint !== mode || (mode === 'direct_post.jwt' && !isError)) throw new AuthorizerError('authorization.wrong_response_mode');
  if (!isError && form.vp_token === undefined) {
    throw new AuthorizerError('authorization.invalid_response', { message: 'The response carries neither vp_token nor error.' });
  }
  return { payload: toWalletPayload(form), state: form.state, encrypted: false };
}

export function toWalletPayload(source: Record<string, unknown>): WalletPayload {
  return {
    ...(source.vp_token !== undefined ? { vpToken: source.vp_token } : {}),
    ...(source.presentation_submission !== undefined ? { presentationSubmission: source.presentation_submission } : {}),
    ...(source.id_token !== undefined ? { idToken: source.id_token } : {}),
    ...(source.error !== undefined ? { error: source.error } : {}),
    ...(source.error_description !== undefined ? { errorDescription: source.error_description } : {}),
  };
}
