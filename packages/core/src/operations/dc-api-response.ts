import * as v from 'valibot';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { acceptResponse, assertAcceptsResponse } from '../authorization/accept-response.js';
import type { AuthorizationStatus } from '../authorization/authorization-record.js';
import { loadForInstance } from '../authorization/transitions.js';
import { jwkThumbprint } from '../crypto/session-transcript.js';
import { decryptAuthorizationResponse } from '../response/decrypt-response.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import { ENCRYPTION_ENC_VALUES, toWalletPayload } from './wallet-response.js';

const bodySchema = v.object({
  origin: v.pipe(v.string(), v.minLength(1), v.maxLength(2048)),
  digitalCredentialGetResponse: v.record(v.string(), v.unknown()),
});

/**
 * The RP forwards what `navigator.credentials.get` returned. The answer is the terminal status,
 * synchronously; the audience for holder binding is `origin:<origin>`.
 */
export async function receiveDcApiResponse(
  ctx: AuthorizerContext,
  instanceId: string,
  id: string,
  endpoint: 'dc_api' | 'dc_api.jwt',
  body: unknown,
): Promise<{ status: AuthorizationStatus }> {
  const parsed = v.safeParse(bodySchema, body);
  if (!parsed.success) {
    throw new AuthorizerError('request.invalid_body', {
      errors: parsed.issues.map((issue) => ({ pointer: `/${(issue.path ?? []).map((p) => String(p.key)).join('/')}`, detail: issue.message })),
    });
  }
  const { origin, digitalCredentialGetResponse: data } = parsed.output;
  const record = await loadForInstance(ctx, instanceId, id);
  if (record.request.responseMode !== endpoint) throw new AuthorizerError('authorization.wrong_response_mode');
  if (record.status === 'expired') return { status: 'expired' };
  assertAcceptsResponse(record);
  // Origins are opaque strings compared exactly (OpenID4VP 1.0 errata).
  const expected = record.request.expectedOrigins;
  if (expected && !expected.includes(origin)) throw new AuthorizerError('authorization.origin_mismatch');

  let source: Record<string, unknown> = data;
  let thumbprint: string | null = null;
  if (typeof data.response === 'string') {
    if (endpoint !== 'dc_api.jwt' || !record.encryptionKey) throw new AuthorizerError('authorization.wrong_response_mode');
    source = (await decryptAuthorizationResponse(data.response, record.encryptionKey, { allowedEnc: ENCRYPTION_ENC_VALUES })).payload;
    thumbprint = await jwkThumbprint(record.encryptionKey.publicJwk);
  } else if (data.error === undefined && endpoint === 'dc_api.jwt') {
    throw new AuthorizerError('authorization.wrong_response_mode', { message: 'dc_api.jwt expects an encrypted response.' });
  } else if (data.error === undefined && data.vp_token === undefined) {
    throw new AuthorizerError('authorization.invalid_response', { message: 'The response carries neither vp_token nor error.' });
  }
  const done = await acceptResponse(ctx, record, toWalletPayload(source), { origin, jwkThumbprint: thumbprint });
  return { status: done.status };
}
