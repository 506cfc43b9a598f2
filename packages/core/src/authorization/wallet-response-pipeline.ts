import { AuthorizerError } from '../errors/authorizer-error.js';
import { constantTimeEqual } from '../crypto/secrets.js';
import { ENCRYPTED_RESPONSE_ENC_VALUES } from '../request/client-metadata.js';
import { decryptAuthorizationResponse } from '../response/decrypt-response.js';
import { instanceOf, type AuthorizerContext } from '../runtime/authorizer-context.js';
import { offeredProtocols, type AuthorizationRecord, type DcApiProtocol } from '../model/authorization-record.js';
import { CborBudget } from '../formats/shared/cbor-budget.js';
import { decryptAnnexCResponse } from '../response/decrypt-annex-c-response.js';
import { annexCVpToken } from '../response/annex-c-vp-token.js';
import { annexCTranscriptInput } from './session-transcript-input.js';
import { acceptResponse, assertAcceptsResponse, type AcceptedResponse } from './accept-response.js';
import type { WalletPayload } from './evaluate-response.js';
import { loadAnyInstance, loadForInstance } from './transitions.js';

/** The endpoint a response arrived at; it names the response mode the request must have asked for. */
export type ResponseEndpoint = 'direct_post' | 'direct_post.jwt' | 'dc_api' | 'dc_api.jwt';

export type WalletResponse =
  | {
      endpoint: 'direct_post' | 'direct_post.jwt';
      id: string;
      /** The form fields as posted. */
      fields: Record<string, unknown>;
    }
  | {
      endpoint: 'dc_api' | 'dc_api.jwt';
      /** The relying party's instance (from its API key): DC API responses come through the RP. */
      instanceId: string;
      id: string;
      /** The `data` of the DigitalCredential. */
      fields: Record<string, unknown>;
      /** The web origin the browser reported. */
      origin: string;
    };

/**
 * Every wallet response (direct_post, direct_post.jwt, dc_api, dc_api.jwt) goes through here, each
 * check once, in this order:
 *
 * 1. load: one store read (by id alone for the wallet's endpoints, which carry no API key);
 *    a claim this process still owes back (store outage) is released first;
 * 2. mode: the endpoint, and plain vs encrypted, must match the request's response mode;
 * 3. record state: not expired, not answered or claimed, request object fetched (direct_post),
 *    origin (DC API);
 * 4. decrypt (encrypted modes) and read the response parameters; then `state` (direct_post);
 * 5. claim, evaluate, decide, commit: acceptResponse (accept-response.ts).
 *
 * Everything refused in 1–4 is a 400 that changes nothing, so a correct response may still follow.
 */
export async function runWalletResponse(ctx: AuthorizerContext, response: WalletResponse): Promise<AcceptedResponse> {
  const loaded = response.endpoint === 'dc_api' || response.endpoint === 'dc_api.jwt'
    ? await loadForInstance(ctx, response.instanceId, response.id)
    : await loadAnyInstance(ctx, response.id);
  const record = (await ctx.claimReleases?.settle(loaded)) ?? loaded;

  assertResponseMode(record, response.endpoint, response.fields);

  if (response.endpoint === 'dc_api' || response.endpoint === 'dc_api.jwt') {
    // The RP learns the status it asked about; a wallet posting directly is refused (below).
    if (record.status === 'expired') return { record };
    assertAcceptsResponse(record, ctx.clock.now());
    // Origins are opaque strings compared exactly (OpenID4VP 1.0 errata). Signed requests carry
    // expectedOrigins; unsigned ones fall back to the instance's allowed origins (configured, or
    // its default). Nothing to compare with is a mismatch, not a pass.
    const expected = record.request.expectedOrigins ?? instanceOf(ctx, record.instanceId).dcApiAllowedOrigins;
    if (!expected.includes(response.origin)) throw new AuthorizerError('authorization.origin_mismatch');
  } else {
    assertAcceptsResponse(record, ctx.clock.now());
    // The wallet can only know response_uri from the request object: nothing was asked yet.
    if (record.status === 'created') throw new AuthorizerError('authorization.not_awaiting_response');
  }

  if (response.endpoint === 'dc_api' || response.endpoint === 'dc_api.jwt') {
    const { protocol, data } = dcApiProtocolOf(record, response.fields);
    if (protocol === 'org-iso-mdoc') return acceptAnnexCResponse(ctx, record, data, response.origin);
    const { payload, encryptionJwk } = await readParameters(record, data);
    return acceptResponse(ctx, record, payload, { origin: response.origin, encryptionJwk });
  }
  const { payload, state, encryptionJwk } = await readParameters(record, response.fields);
  const expectedState = record.request.state;
  if (expectedState !== undefined && (typeof state !== 'string' || !constantTimeEqual(state, expectedState))) {
    throw new AuthorizerError('authorization.state_mismatch');
  }
  return acceptResponse(ctx, record, payload, { encryptionJwk });
}

/**
 * Which offered protocol a DC API response answers, and its `data`: the browser's
 * `{protocol, data}` as returned by `navigator.credentials.get`, or the bare `data` when the
 * authorization offered one protocol. A protocol that was not offered is refused.
 */
function dcApiProtocolOf(record: AuthorizationRecord, fields: Record<string, unknown>): { protocol: DcApiProtocol; data: Record<string, unknown> } {
  const offered = offeredProtocols(record.request);
  if (typeof fields.protocol === 'string') {
    const data = fields.data;
    if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new AuthorizerError('authorization.invalid_response', { message: 'digitalCredentialGetResponse.data must be an object.' });
    const named = offered.find((p) => p === fields.protocol);
    if (named === undefined) throw new AuthorizerError('authorization.protocol_not_offered');
    return { protocol: named, data: data as Record<string, unknown> };
  }
  if (offered.length > 1) {
    throw new AuthorizerError('authorization.invalid_response', { message: 'This authorization offered several protocols: send digitalCredentialGetResponse as {protocol, data}, as the browser returned it.' });
  }
  return { protocol: offered[0] ?? 'openid4vp-v1-unsigned', data: fields };
}

/**
 * ISO/IEC 18013-7 Annex C: open the HPKE envelope with this authorization's recipient key and the
 * SessionTranscript of the reported origin, then hand the DeviceResponse to the same policies as
 * an OpenID4VP mdoc, with that transcript. One CBOR budget covers the envelope (and, for several
 * credential queries, splitting the DeviceResponse by docType); the format policy then decodes the
 * DeviceResponse once under its own budget, as any vp_token, so a sealed bomb costs what the same
 * bytes cost over direct_post, plus one AES-GCM pass over them.
 */
async function acceptAnnexCResponse(ctx: AuthorizerContext, record: AuthorizationRecord, data: Record<string, unknown>, origin: string): Promise<AcceptedResponse> {
  const recipient = record.annexC;
  const query = record.request.query;
  // A record that offered org-iso-mdoc and can still take a response has its key (dropped only once terminal).
  if (!recipient || query.type !== 'DCQL') throw new AuthorizerError('authorization.wrong_response_mode');
  if (typeof data.response !== 'string') throw new AuthorizerError('authorization.annex_c_malformed', { message: 'The org-iso-mdoc data must carry response, a base64url string.' });
  const budget = new CborBudget();
  const sessionTranscript = annexCTranscriptInput(recipient.encryptionInfo, origin);
  const deviceResponse = await decryptAnnexCResponse(data.response, recipient.privateJwk, sessionTranscript, budget);
  const vpToken = annexCVpToken(deviceResponse, query.dcql, budget);
  return acceptResponse(ctx, record, { vpToken }, { origin, encryptionJwk: null, sessionTranscript });
}

/**
 * The endpoint must be the one the request's response mode names (a plain wallet error may come
 * to either direct_post endpoint). Whether the body is encrypted as that mode requires is checked
 * with the decryption (readParameters), after the record's state, as it always was.
 */
function assertResponseMode(record: AuthorizationRecord, endpoint: ResponseEndpoint, fields: Record<string, unknown>): void {
  const mode = record.request.responseMode;
  const fits = endpoint === 'dc_api' || endpoint === 'dc_api.jwt'
    ? mode === endpoint
    : (mode === 'direct_post' || mode === 'direct_post.jwt') && (endpoint === mode || fields.error !== undefined);
  if (!fits) throw new AuthorizerError('authorization.wrong_response_mode');
}

interface ResponseParameters {
  payload: WalletPayload;
  /** `state` as sent (direct_post checks it). */
  state: unknown;
  /** Our public key when the response was encrypted to it (its thumbprint enters the mdoc SessionTranscript), else null. */
  encryptionJwk: JsonWebKey | null;
}

/**
 * The response parameters: the `response` JWE decrypted with this authorization's key, or the
 * plain fields, as the response mode requires. A payload with neither
 * `vp_token` nor `error` is refused here, before the authorization is claimed.
 */
async function readParameters(record: AuthorizationRecord, source: Record<string, unknown>): Promise<ResponseParameters> {
  // An encrypted mode takes a `response` JWE (or a plain wallet error); a plain mode never takes one.
  // A record that can still take a response in an encrypted mode has its key (dropped only once terminal).
  const key = record.request.responseMode.endsWith('.jwt') ? record.encryptionKey : undefined;
  if (source.response !== undefined ? !key || typeof source.response !== 'string' : key && source.error === undefined) {
    throw new AuthorizerError('authorization.wrong_response_mode', source.response === undefined ? { message: 'This authorization expects an encrypted response.' } : undefined);
  }
  let fields = source;
  let encryptionJwk: JsonWebKey | null = null;
  if (key && typeof source.response === 'string') {
    fields = (await decryptAuthorizationResponse(source.response, key, { allowedEnc: ENCRYPTED_RESPONSE_ENC_VALUES })).payload;
    encryptionJwk = key.publicJwk;
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
