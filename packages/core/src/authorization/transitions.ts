import type { PolicyError } from '../model/policy-result.js';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { policyProblem } from '../errors/error-codes.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import { isLeaseLive, isTerminalStatus, type AuthorizationRecord, type AuthorizationStatus } from '../model/authorization-record.js';
import { erasePersonalData, isErasureDue, retentionAtOutcome } from './data-retention.js';

/**
 * Write `next` (version + 1) if nobody changed the record meanwhile; emit the status change.
 * A change whose value is `undefined` removes that member. `ttlMs`: keep the record that long
 * from now on (in the same compare-and-set), instead of its current TTL.
 */
export async function commit(ctx: AuthorizerContext, current: AuthorizationRecord, changes: Partial<AuthorizationRecord>, ttlMs?: number): Promise<AuthorizationRecord | null> {
  if (isTerminalStatus(current.status)) return null; // terminal states never change
  const now = ctx.clock.now();
  const merged: AuthorizationRecord = { ...current, ...changes, version: current.version + 1, updatedAt: now };
  // The outcome starts the disclosed data's retention window (dataRetention.afterTerminal).
  const retention = isTerminalStatus(merged.status) ? retentionAtOutcome(ctx.instances.get(current.instanceId), current, now) : undefined;
  if (retention !== undefined) {
    merged.eraseAt = retention.eraseAt;
    if (retention.ttlMs !== undefined) ttlMs = Math.min(ttlMs ?? Infinity, retention.ttlMs);
  }
  // Once terminal, nothing may be decrypted with this authorization's keys again: drop them.
  const next = withoutRemoved(merged, changes, isTerminalStatus(merged.status));
  // Without a TTL, the two-argument call every store has always had.
  const ok = await (ttlMs === undefined ? ctx.store.compareAndSet(next, current.version) : ctx.store.compareAndSet(next, current.version, ttlMs));
  if (!ok) return null;
  if (next.status !== current.status) emitStatus(ctx, next, current.status);
  return next;
}

/**
 * `record` without the members `changes` sets to undefined (and without its encryption key when
 * `dropKey`), built afresh rather than by `delete`: deleting a member other than the last turns
 * an object into a slow dictionary, and this one is read again at once (the store copies it; the
 * answer, the event and the webhook are built from it).
 */
function withoutRemoved(record: AuthorizationRecord, changes: Partial<AuthorizationRecord>, dropKey: boolean): AuthorizationRecord {
  let removes = dropKey && (record.encryptionKey !== undefined || record.annexC !== undefined);
  for (const key in changes) if (changes[key as keyof AuthorizationRecord] === undefined) removes = true;
  if (!removes) return record;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    // '__proto__' is no member of a record: assigning it would set the prototype instead.
    if (value === undefined || (dropKey && (key === 'encryptionKey' || key === 'annexC')) || key === '__proto__') continue;
    kept[key] = value;
  }
  return kept as unknown as AuthorizationRecord;
}

export function emitStatus(ctx: AuthorizerContext, record: AuthorizationRecord, previousStatus?: AuthorizationStatus): void {
  ctx.emit({
    type: `authorization.${record.status}`,
    instanceId: record.instanceId,
    authorizationId: record.id,
    status: record.status,
    ...(previousStatus ? { previousStatus } : {}),
    at: record.updatedAt,
  }, record);
}

/** Why the sweep's policy result says the authorization ended: the response was claimed but never decided. */
export const PROCESSING_ABANDONED: PolicyError = policyProblem(
  'authorizer.processing_abandoned',
  'Processing stopped before an outcome was stored (the process ended or lost its store), and no response was submitted again before the authorization expired.',
);

/** The claim deadline of a claimed record (records claimed before claimExpiresAt existed: claim + grace). */
function claimDeadline(ctx: AuthorizerContext, record: AuthorizationRecord): number | undefined {
  if (record.responseClaimedAt === undefined) return undefined;
  return record.claimExpiresAt ?? record.responseClaimedAt + (ctx.instances.get(record.instanceId)?.claimGraceMs ?? 0);
}

/**
 * What is overdue now: an unclaimed record past expiresAt expires; a claimed one is left to its
 * processing until the claim deadline (even past expiresAt), then ends as abandoned. The claim
 * deadline does not depend on expiresAt, so a process that died right after claiming is noticed
 * after the policy timeouts plus a margin, not at the end of the authorization's lifetime.
 */
function overdueChange(ctx: AuthorizerContext, record: AuthorizationRecord, now: number): Partial<AuthorizationRecord> | null {
  if (isTerminalStatus(record.status)) return null;
  const deadline = claimDeadline(ctx, record);
  if (deadline === undefined) return now >= record.expiresAt ? { status: 'expired' } : null;
  if (now < deadline) return null;
  return {
    status: 'error',
    error: PROCESSING_ABANDONED,
    policyResults: [{ path: [], policy: 'authorizer', service: 'authorizer', error: PROCESSING_ABANDONED }],
    credentials: [],
  };
}

/**
 * True while a wallet response is claimed, not yet decided, and its holder's lease is live (the
 * status endpoint says `processing`). A claim whose lease ran out is not: a response may take it over.
 */
export const isProcessing = (record: AuthorizationRecord, now: number): boolean => isLeaseLive(record, now);

/**
 * Move an overdue record to `expired`, or an abandoned claim to `error` (lazily on read, and from
 * the sweep). Returns the current record.
 */
export async function expireIfOverdue(ctx: AuthorizerContext, record: AuthorizationRecord): Promise<AuthorizationRecord> {
  let current = record;
  for (let attempt = 0; attempt < 3; attempt++) {
    const change = overdueChange(ctx, current, ctx.clock.now());
    if (!change) return current;
    const next = await commit(ctx, current, change);
    if (next) return next;
    const reread = await ctx.store.get(current.instanceId, current.id);
    if (!reread) return current;
    current = reread;
  }
  return current;
}

const ID_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * Load a record of one instance (RP routes), expiring it lazily; 404 when unknown. One `then` on
 * the store's promise rather than an async frame around it (status polls come through here);
 * every failure, a store's synchronous throw included, still arrives as a rejection.
 */
export function loadForInstance(ctx: AuthorizerContext, instanceId: string, id: string): Promise<AuthorizationRecord> {
  let read: Promise<AuthorizationRecord | null>;
  try {
    if (!ID_PATTERN.test(id)) return Promise.reject(new AuthorizerError('authorization.not_found'));
    read = ctx.store.get(instanceId, id);
  } catch (error) {
    return Promise.reject(error);
  }
  return Promise.resolve(read).then((record) => {
    if (!record) throw new AuthorizerError('authorization.not_found');
    return asItStands(ctx, record);
  });
}

/**
 * Load a record by id alone (wallet routes carry no API key): one store call across every
 * instance (`getInAny`; a store without it is asked once per instance).
 */
export async function loadAnyInstance(ctx: AuthorizerContext, id: string): Promise<AuthorizationRecord> {
  if (!ID_PATTERN.test(id)) throw new AuthorizerError('authorization.not_found');
  const instanceIds = [...ctx.instances.keys()];
  const found = ctx.store.getInAny
    ? await ctx.store.getInAny(instanceIds, id)
    : (await Promise.all(instanceIds.map((instanceId) => ctx.store.get(instanceId, id)))).find((r) => r !== null);
  if (!found) throw new AuthorizerError('authorization.not_found');
  return asItStands(ctx, found);
}

/**
 * `record` itself when nothing is overdue (no turn through the lazy expiry), else expireIfOverdue's
 * answer; a record whose disclosed data is past its retention is erased first (null: it was
 * deleted: 404), so no read hands out data after its window, whether or not the sweep has run.
 */
function asItStands(ctx: AuthorizerContext, record: AuthorizationRecord): AuthorizationRecord | Promise<AuthorizationRecord> {
  const now = ctx.clock.now();
  if (record.eraseAt !== undefined && isErasureDue(record, now)) return erasePersonalData(ctx, record, 'retention').then(stillStored);
  return overdueChange(ctx, record, now) === null ? record : expireIfOverdue(ctx, record);
}

/** Deleted for retention (`delete` mode): gone, as the store says a moment later. */
function stillStored(record: AuthorizationRecord | null): AuthorizationRecord {
  if (!record) throw new AuthorizerError('authorization.not_found');
  return record;
}

/**
 * Sweep: expire (or end as abandoned) up to `limit` overdue records, and erase the disclosed data
 * of finished ones past their retention window; returns how many were expired or abandoned.
 */
export async function sweepExpired(ctx: AuthorizerContext, limit = 500): Promise<number> {
  const candidates = await ctx.store.listDueForExpiry(ctx.clock.now(), limit);
  let changed = 0;
  for (const { instanceId, id } of candidates) {
    if (!ctx.instances.has(instanceId)) continue;
    const record = await ctx.store.get(instanceId, id);
    if (!record) continue;
    if (isTerminalStatus(record.status)) {
      if (isErasureDue(record, ctx.clock.now())) await erasePersonalData(ctx, record, 'retention');
      continue;
    }
    const after = await expireIfOverdue(ctx, record);
    const sweptTo = after.status === 'expired' || after.error?.code === PROCESSING_ABANDONED.code;
    if (sweptTo && !isTerminalStatus(record.status)) changed++;
  }
  return changed;
}
