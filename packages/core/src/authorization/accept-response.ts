import { AuthorizerError } from '../errors/authorizer-error.js';
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

/**
 * Claim the record for this response (compare-and-set, so exactly one of any number of
 * concurrent responses wins), evaluate it, and store the terminal outcome.
 */
export async function acceptResponse(ctx: AuthorizerContext, record: AuthorizationRecord, payload: WalletPayload, channel: ResponseChannel): Promise<AuthorizationRecord> {
  let current = record;
  let claimed: AuthorizationRecord | null = null;
  for (let attempt = 0; attempt < 5 && !claimed; attempt++) {
    assertAcceptsResponse(current);
    claimed = await commit(ctx, current, { status: 'pending', responseClaimedAt: ctx.clock.now() });
    if (!claimed) {
      // Lost a race: someone else claimed it, or an unrelated change (created → pending) moved the version.
      const reread = await ctx.store.get(current.instanceId, current.id);
      if (!reread) throw new AuthorizerError('authorization.not_found');
      current = reread;
    }
  }
  if (!claimed) throw new AuthorizerError('authorization.already_answered');

  const outcome = await evaluateResponse(instanceOf(ctx, claimed.instanceId), claimed, payload, channel);
  const done = await commit(ctx, claimed, {
    status: outcome.status,
    policyResults: outcome.policyResults,
    credentials: outcome.credentials,
    ...(outcome.error ? { error: outcome.error } : {}),
  });
  if (done) return done;
  // Only the sweep can have moved a claimed record (to expired after the grace period).
  return (await ctx.store.get(claimed.instanceId, claimed.id)) ?? claimed;
}
