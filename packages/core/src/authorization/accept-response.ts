import type { PolicyError } from '../model/policy-result.js';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { policyProblem } from '../errors/error-codes.js';
import { isStoreUnavailableError } from '../errors/store-unavailable-error.js';
import { describeError } from '../events/logger.js';
import { issueResponseCode } from '../response-code/response-code.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import { instanceOf } from '../runtime/authorizer-context.js';
import type { InstanceRuntime } from '../runtime/instance-runtime.js';
import { isLeaseLive, isTerminalStatus, leaseExpiry, type AuthorizationRecord } from '../model/authorization-record.js';
import { evaluateResponse, type Evaluation, type ResponseChannel, type WalletPayload } from './evaluate-response.js';
import { releaseClaim } from './claim-releases.js';
import { commit } from './transitions.js';
import { claimChanges, LeaseRenewal } from './claim-lease.js';

/**
 * A response arrived while another one holds a live lease on the authorization: the same 400 as
 * for an answered authorization (what wallets that do not retry have always been told), plus a
 * `Retry-After` of the lease's remaining seconds. A wallet that retries then either finds the
 * decision made (400 without Retry-After: stop) or the lease run out because its holder died,
 * and its response is processed afresh.
 */
export class ResponseBeingProcessed extends AuthorizerError {
  readonly retryAfterSeconds: number;
  constructor(leaseLeftMs: number) {
    super('authorization.already_answered', { message: 'A response for this authorization is being processed; retry after Retry-After seconds if yours was not answered.' });
    this.retryAfterSeconds = Math.max(1, Math.ceil(leaseLeftMs / 1000));
  }
}

/**
 * Refuse a response for a record that can no longer take one; changes nothing. A claim whose
 * lease ran out before the authorization expired does not refuse: the response takes it over.
 */
export function assertAcceptsResponse(record: AuthorizationRecord, now: number): void {
  if (record.status === 'expired') throw new AuthorizerError('authorization.expired');
  if (isTerminalStatus(record.status)) throw new AuthorizerError('authorization.already_answered');
  if (record.responseClaimedAt === undefined) return;
  if (isLeaseLive(record, now)) throw new ResponseBeingProcessed(leaseExpiry(record)! - now);
  if (now >= record.expiresAt) throw new AuthorizerError('authorization.expired');
}

export interface AcceptedResponse {
  /** The record with its terminal status. */
  record: AuthorizationRecord;
  /** Where the wallet goes next (direct_post modes with a redirect URI); carries the one response code. */
  redirectUri?: string;
  /**
   * Set when the wallet is to be answered with an error rather than 200: a presentation `rejected`
   * by a policy under `openId4vp.rejectedResponse: 'error'` (no response code is issued then).
   */
  refusal?: PolicyError;
}

const INTERNAL_FAILURE: PolicyError = policyProblem('authorizer.internal_error');

/**
 * Claim the record for this response (checked by the pipeline, wallet-response-pipeline.ts) (compare-and-set, so exactly one of any number of
 * concurrent responses wins), evaluate it, issue the response code, and store the terminal
 * outcome.
 *
 * Failures after the claim:
 * - the store failed (StoreUnavailableError): the claim is released (compare-and-set back to an
 *   unclaimed `pending`) so that the wallet's retry is processed afresh, and only then is the
 *   wallet answered 503 + Retry-After. If the release cannot be written either, a retry could
 *   not succeed (the record stays claimed until the claim deadline, then ends `error`), so the
 *   wallet gets `authorization.processing_failed`, which does not invite a retry.
 * - anything else: the record ends `error` and the error propagates (500).
 *
 * Only the processing whose terminal write wins hands out its response code: a code is never
 * delivered for an authorization someone else decided, so there is at most one per authorization.
 *
 * Retries are not made idempotent by a digest of the response body: for a terminal record the
 * first code cannot be recovered (only its hash is stored) and issuing another would let anyone
 * replaying the bytes obtain a code (the session-fixation defence of OpenID4VP §14.2); for a
 * claimed record a digest cannot tell a live processing from a dead one. Hence: release on
 * failure, never answer 503 while the claim stands, and bound every claim by a deadline.
 */
export async function acceptResponse(ctx: AuthorizerContext, record: AuthorizationRecord, payload: WalletPayload, channel: ResponseChannel): Promise<AcceptedResponse> {
  const instance = instanceOf(ctx, record.instanceId);
  let claimed = await claim(ctx, instance, record);
  const lease = new LeaseRenewal(ctx, claimed, ctx.claimLeaseMs, claimed.responseClaimedAt! + instance.claimGraceMs);
  let redirectUri: string | undefined;
  let refusal: PolicyError | undefined;
  let done: AuthorizationRecord | null;
  // Set once the terminal write is sent: only then can it have landed despite an error.
  let sent: Evaluation | undefined;
  try {
    const outcome = await evaluateResponse(instance, claimed, payload, channel, ctx.instrumentation);
    refusal = refusalFor(instance, outcome, payload);
    // Issued before the terminal write, so a record never ends terminal with a code that was not stored.
    // A refused wallet gets no redirect, so no code is issued for it.
    if (claimed.request.redirectUri && !refusal) {
      redirectUri = await issueResponseCode(ctx, claimed, claimed.request.redirectUri, instance.config.openId4vp.responseCodeTtl);
    }
    claimed = await lease.settle();
    sent = outcome;
    done = lease.lost
      ? null
      : await lease.commit({
          status: outcome.status,
          policyResults: outcome.policyResults,
          credentials: outcome.credentials,
          ...(outcome.error ? { error: outcome.error } : {}),
          // Nobody holds a decided authorization.
          claimHolder: undefined,
          leaseExpiresAt: undefined,
        });
  } catch (error) {
    claimed = await lease.settle();
    if (isStoreUnavailableError(error)) return recoverFromStoreFailure(ctx, claimed, error, sent, redirectUri, refusal);
    ctx.log['response.processing_failed']?.({ authorizationId: claimed.id, err: describeError(error) });
    await commit(ctx, claimed, {
      status: 'error',
      error: INTERNAL_FAILURE,
      policyResults: [{ path: [], policy: 'authorizer', service: 'authorizer', error: INTERNAL_FAILURE }],
    }).catch(() => undefined);
    throw error;
  }
  // The record moved under our claim: our lease ran out and another response took the claim over
  // (or decided it), the sweep ended it as abandoned, or it is gone (a store that lost its data).
  // Our outcome is void and our code never handed out (it points at whatever was decided).
  if (!done) return refuseLateCommit(ctx, lease.current, sent.status);
  ctx.instrumentation?.decision({ instanceId: done.instanceId, status: sent.status, ...(sent.error?.code ? { code: sent.error.code } : {}) });
  return answer(done, redirectUri, refusal);
}

/**
 * The lease was lost before the terminal write: the decision, if any, is someone else's. Log it,
 * and answer this wallet as the authorization now stands (400 while someone else holds a live
 * lease or once it is decided; a retry can only succeed where the claim was freed).
 */
async function refuseLateCommit(ctx: AuthorizerContext, ours: AuthorizationRecord, wouldHaveBeen: string): Promise<never> {
  const stored = await ctx.store.get(ours.instanceId, ours.id).catch(() => null);
  ctx.log['response.lease_lost']?.({ authorizationId: ours.id, refusedStatus: wouldHaveBeen, storedStatus: stored?.status ?? 'missing' });
  // Decided by another holder: answered as any response for a decided authorization is.
  if (stored && (stored.status === 'authorized' || stored.status === 'rejected')) throw new AuthorizerError('authorization.already_answered');
  // Someone else holds a live lease now: their decision is pending, and this wallet may ask again.
  if (stored && isLeaseLive(stored, ctx.clock.now())) throw new ResponseBeingProcessed(leaseExpiry(stored)! - ctx.clock.now());
  // Ended (abandoned, expired) or gone: nothing this wallet can still submit.
  throw new AuthorizerError('authorization.processing_failed');
}

const answer = (record: AuthorizationRecord, redirectUri: string | undefined, refusal: PolicyError | undefined): AcceptedResponse => ({
  record,
  ...(redirectUri ? { redirectUri } : {}),
  ...(refusal ? { refusal } : {}),
});

/** A policy rejection (not the wallet's own error response) answered to the wallet as an error. */
function refusalFor(instance: InstanceRuntime, outcome: Evaluation, payload: WalletPayload): PolicyError | undefined {
  if (outcome.status !== 'rejected' || payload.error !== undefined) return undefined;
  if (instance.config.openId4vp.rejectedResponse !== 'error') return undefined;
  return outcome.error ?? policyProblem('authorizer.rejected');
}

/**
 * The store failed after the claim. Release the claim so a retry can succeed; when the release
 * loses its compare-and-set, the terminal write may have reached the store late (a stalled
 * command): if the stored record is exactly what we wrote, answer as if it had succeeded.
 */
async function recoverFromStoreFailure(
  ctx: AuthorizerContext,
  claimed: AuthorizationRecord,
  failure: unknown,
  /** The outcome whose terminal write was sent, if it was. */
  sent: Evaluation | undefined,
  redirectUri: string | undefined,
  refusal: PolicyError | undefined,
): Promise<AcceptedResponse> {
  let released = false;
  try {
    released = (await releaseClaim(ctx, claimed)) !== null;
    if (!released && sent) {
      const current = await ctx.store.get(claimed.instanceId, claimed.id);
      const ours = current && current.version === claimed.version + 1 && current.status === sent.status && current.error?.code === sent.error?.code;
      if (ours) return answer(current, redirectUri, refusal);
    }
  } catch {
    // The store is still down: give the claim back in the background, once it answers again.
  }
  // Owed even when the terminal write was sent: if it landed, the background release finds a
  // newer version and leaves it alone; if not (the likelier case with the store down), it frees the claim.
  const owed = !released && ctx.claimReleases !== undefined;
  if (owed) ctx.claimReleases!.owe(claimed);
  ctx.log['response.store_failed']?.({ authorizationId: claimed.id, err: describeError(failure), released, releaseOwed: owed });
  if (released || owed) throw failure;
  throw new AuthorizerError('authorization.processing_failed', { cause: failure });
}


/**
 * `record` was checked by the pipeline (assertAcceptsResponse, owed claim settled); a record read
 * again after a lost race is checked here.
 */
async function claim(ctx: AuthorizerContext, instance: InstanceRuntime, record: AuthorizationRecord): Promise<AuthorizationRecord> {
  let current = record;
  for (let attempt = 0; attempt < 5; attempt++) {
    const now = ctx.clock.now();
    const changes = claimChanges(current, now, ctx.claimLeaseMs, instance.claimGraceMs);
    let claimed: AuthorizationRecord | null;
    try {
      claimed = await commit(ctx, current, changes);
    } catch (error) {
      if (isStoreUnavailableError(error)) await undoUncertainClaim(ctx, current, changes);
      throw error;
    }
    if (claimed) {
      ctx.emit({ type: 'authorization.processing', instanceId: claimed.instanceId, authorizationId: claimed.id, status: claimed.status, at: now }, claimed);
      return claimed;
    }
    // Lost a race: someone else claimed it, or an unrelated change (created → pending) moved the version.
    const reread = await ctx.store.get(current.instanceId, current.id);
    if (!reread) throw new AuthorizerError('authorization.not_found');
    assertAcceptsResponse(reread, ctx.clock.now());
    current = reread;
  }
  throw new AuthorizerError('authorization.already_answered');
}

/**
 * The claim's write failed, but a stalled command may still have reached the store: if the stored
 * record carries our claim, release it, so that the retry the wallet is invited to make (503)
 * finds the record unclaimed. Someone else's claim (same version, other claim time) is left alone.
 */
async function undoUncertainClaim(ctx: AuthorizerContext, current: AuthorizationRecord, changes: { responseClaimedAt: number; claimExpiresAt: number }): Promise<void> {
  try {
    const stored = await ctx.store.get(current.instanceId, current.id);
    const ours = stored && stored.version === current.version + 1 && stored.responseClaimedAt === changes.responseClaimedAt && stored.claimExpiresAt === changes.claimExpiresAt;
    if (ours) await releaseClaim(ctx, stored);
  } catch {
    // Still unreachable (or the read queued behind the stalled write): if the claim did land,
    // give it back in the background so the retry the wallet is invited to make can succeed.
    ctx.claimReleases?.owe({ instanceId: current.instanceId, id: current.id, version: current.version + 1, ...changes });
  }
}
