import * as v from 'valibot';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { acceptResponse, assertAcceptsResponse, settleOwedClaim } from '../authorization/accept-response.js';
import type { AuthorizationStatus } from '../authorization/authorization-record.js';
import { readResponsePayload } from '../authorization/response-payload.js';
import { loadForInstance } from '../authorization/transitions.js';
import { instanceOf, type AuthorizerContext } from '../runtime/authorizer-context.js';

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
  const { origin, digitalCredentialGetResponse } = parsed.output;
  const record = await settleOwedClaim(ctx, await loadForInstance(ctx, instanceId, id));
  if (record.request.responseMode !== endpoint) throw new AuthorizerError('authorization.wrong_response_mode');
  if (record.status === 'expired') return { status: 'expired' };
  assertAcceptsResponse(record);
  // Origins are opaque strings compared exactly (OpenID4VP 1.0 errata). Signed requests carry
  // expectedOrigins; unsigned ones fall back to the instance's allowed origins. Nothing to
  // compare with (a record created before that setting existed) is a mismatch, not a pass.
  const expected = record.request.expectedOrigins ?? instanceOf(ctx, instanceId).config.openId4vp.dcApi.allowedOrigins;
  if (!expected.includes(origin)) throw new AuthorizerError('authorization.origin_mismatch');

  const { payload, jwkThumbprint } = await readResponsePayload(record, digitalCredentialGetResponse);
  const { record: done } = await acceptResponse(ctx, record, payload, { origin, jwkThumbprint });
  return { status: done.status };
}
