import type { PolicyError } from '../clients/policy-result.js';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { describeError } from '../events/logger.js';
import { issueResponseCode } from '../response-code/response-code.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import { instanceOf } from '../runtime/authorizer-context.js';
import { isTerminalStatus, type AuthorizationRecord } from './authorization-record.js';
import { evaluateResponse, type ResponseChannel, type WalletPayload } from './evaluate-response.js';
import { commit } from './transitions.js';

/** Refuse a response for a record that can no longer take one; changes nothing. */
export function assertAcceptsResponse(record: AuthorizationRecord): void {
  if (record.status === 'expired') throw new AuthorizerError('authorization.expired');
  if (isTerminalStatus(record.status) || record.responseClaimedAt !== undefined) throw new AuthorizerError('authorization.already_answered');
}

const INTERNAL_FAILURE: PolicyError = {
  type: 'https://vp-authorizer.dev/errors/internal',
  title: 'The response could not be processed',
  code: 'internal',
};

/**
 * Claim the record for this response (compare-and-set, so exactly one of any number of
 * concurrent responses wins), evaluate it, issue the response code, and store the terminal
 * outcome. Once claimed, the record always ends terminal: an internal failure becomes `error`.
 */
export async function acceptResponse(
  ctx: AuthorizerContext,
  record: AuthorizationRecord,
  payload: WalletPayload,
  channel: ResponseChannel,
): Promise<{ record: AuthorizationRecord; redirectUri?: string }> {
  const claimed = await claim(ctx, record);
  try {
    const instance = instanceOf(ctx, claimed.instanceId);
    const outcome = await evaluateResponse(instance, claimed, payload, channel);
    // Issued before the terminal write: if storing the code fails, the record still ends terminal (error).
    const redirectUri = claimed.request.redirectUri
      ? await issueResponseCode(ctx, claimed, claimed.request.redirectUri, instance.config.openId4vp.responseCodeTtl)
      : undefined;
    const done = await commit(ctx, claimed, {
      status: outcome.status,
      policyResults: outcome.policyResults,
      credentials: outcome.credentials,
      ...(outcome.error ? { error: outcome.error } : {}),
    });
    // Only the sweep can have moved a claimed record (to expired after the grace period).
    const final = done ?? (await ctx.store.get(claimed.instanceId, claimed.id)) ?? claimed;
    return redirectUri ? { record: final, redirectUri } : { record: final };
  } catch (error) {
    ctx.logger.error?.({ authorizationId: claimed.id, err: describeError(error) }, 'response processing failed; marking the authorization as error');
    await commit(ctx, claimed, {
      status: 'error',
      error: INTERNAL_FAILURE,
      policyResults: [{ path: [], policy: 'authorizer', service: 'authorizer', error: INTERNAL_FAILURE }],
    }).catch(() => undefined);
    throw error;
  }
}

async function claim(ctx: AuthorizerContext, record: AuthorizationRecord): Promise<AuthorizationRecord> {
  let current = record;
  for (let attempt = 0; attempt < 5; attempt++) {
    assertAcceptsResponse(current);
    const claimed = await commit(ctx, current, { status: 'pending', responseClaimedAt: ctx.clock.now() });
    if (claimed) return claimed;
    // Lost a race: someone else claimed it, or an unrelated change (created → pending) moved the version.
    const reread = await ctx.store.get(current.instanceId, current.id);
    if (!reread) throw new AuthorizerError('authorization.not_found');
    current = reread;
  }
  throw new AuthorizerError('authorization.already_answered');
}
