import { AuthorizerError } from '../errors/authorizer-error.js';
import { ENCRYPTED_RESPONSE_ENC_VALUES } from '../request/client-metadata.js';
import { decryptAuthorizationResponse } from '../response/decrypt-response.js';
import type { AuthorizationRecord } from '../model/authorization-record.js';
import type { WalletPayload } from './evaluate-response.js';

export interface ReadPayload {
  payload: WalletPayload;
  /** `state` as sent (redirect flows check it). */
  state: unknown;
  /** Our public key when the response was encrypted to it (its thumbprint enters the mdoc SessionTranscript), else null. */
  encryptionJwk: JsonWebKey | null;
}

/**
 * Turn what arrived (form fields, DC API `data`) into response parameters: decrypt a `response`
 * JWE with this authorization's key, or take the plain fields. Encrypted modes accept a plain
 * wallet error only. A payload with neither `vp_token` nor `error` is refused here, before the
 * authorization is claimed, so the wallet can still send a correct one.
 */
export async function readResponsePayload(record: AuthorizationRecord, source: Record<string, unknown>): Promise<ReadPayload> {
  const encryptedMode = record.request.responseMode.endsWith('.jwt');
  let fields = source;
  let encryptionJwk: JsonWebKey | null = null;
  if (source.response !== undefined) {
    if (!encryptedMode || !record.encryptionKey || typeof source.response !== 'string') throw new AuthorizerError('authorization.wrong_response_mode');
    fields = (await decryptAuthorizationResponse(source.response, record.encryptionKey, { allowedEnc: ENCRYPTED_RESPONSE_ENC_VALUES })).payload;
    encryptionJwk = record.encryptionKey.publicJwk;
  } else if (encryptedMode && source.error === undefined) {
    throw new AuthorizerError('authorization.wrong_response_mode', { message: 'This authorization expects an encrypted response.' });
  }
  if (fields.error === undefined && fields.vp_token === undefined) {
    throw new AuthorizerError('authorization.invalid_response', { message: 'The response carries neither vp_token nor error.' });
  }
  return { payload: toWalletPayload(fields), state: fields.state, encryptionJwk };
}

function toWalletPayload(source: Record<string, unknown>): WalletPayload {
  return {
    ...(source.vp_token !== undefined ? { vpToken: source.vp_token } : {}),
    ...(source.presentation_submission !== undefined ? { presentationSubmission: source.presentation_submission } : {}),
    ...(source.id_token !== undefined ? { idToken: source.id_token } : {}),
    ...(source.error !== undefined ? { error: source.error } : {}),
    ...(source.error_description !== undefined ? { errorDescription: source.error_description } : {}),
  };
}
