import { AuthorizerError } from '../errors/authorizer-error.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import { isTerminalStatus, type AuthorizationRecord, type AuthorizationStatus } from './authorization-record.js';


/** Write `next` (version + 1) if nobody changed the record meanwhile; emit the status change. */
export async function commit(ctx: AuthorizerContext, current: AuthorizationRecord, changes: Partial<AuthorizationRecord>): Promise<AuthorizationRecord | null> {
  if (isTerminalStatus(current.status)) return null; // terminal states never change
  const next: AuthorizationRecord = { ...current, ...changes, version: current.version + 1, updatedAt: ctx.clock.now() };
  // Once terminal, nothing may be decrypted with this authorization's key again: drop it.
  if (isTerminalStatus(next.status)) delete next.encryptionKey;
  const ok = await ctx.store.compareAndSet(next, current.version);
  if (!ok) return null;
  if (next.status !== current.status) emitStatus(ctx, next, current.status);
  return next;
}

export function emitStatus(ctx: AuthorizerContext, record: AuthorizationRecord, previousStatus?: AuthorizationStatus): void {
  ctx.emit({
    type: `authorization.${record.status}`,
    instanceId: record.instanceId,
    authorizationId: record.id,
    status: record.status,
    ...(previousStatus ? { previousStatus } : {}),
    at: record.updatedAt,
  });
}

function isOverdue(ctx: AuthorizerContext, record: AuthorizationRecord, now: number): boolean {
  if (isTerminalStatus(record.status) || now < record.expiresAt) return false;
  // A response being processed gets time to finish (a process that died mid-way must still not
  // leave the authorization pending forever).
  const grace = ctx.instances.get(record.instanceId)?.claimGraceMs ?? 0;
  return record.responseClaimedAt === undefined || now >= record.responseClaimedAt + grace;
}

/** Move an overdue record to `expired` (lazily on read, and from the sweep). Returns the current record. */
export async function expireIfOverdue(ctx: AuthorizerContext, record: AuthorizationRecord): Promise<AuthorizationRecord> {
  let current = record;
  for (let attempt = 0; attempt < 3 && isOverdue(ctx, current, ctx.clock.now()); attempt++) {
    const next = await commit(ctx, current, { status: 'expired' });
    if (next) return next;
    const reread = await ctx.store.get(current.instanceId, current.id);
    if (!reread) return current;
    current = reread;
  }
  return current;
}

const ID_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/** Load a record of one instance (RP routes), expiring it lazily; 404 when unknown. */
export async function loadForInstance(ctx: AuthorizerContext, instanceId: string, id: string): Promise<AuthorizationRecord> {
  if (!ID_PATTERN.test(id)) throw new AuthorizerError('authorization.not_found');
  const record = await ctx.store.get(instanceId, id);
  if (!record) throw new AuthorizerError('authorization.not_found');
  return expireIfOverdue(ctx, record);
}

/** Load a record by id alone (wallet routes carry no API key): look in every instance. */
export async function loadAnyInstance(ctx: AuthorizerContext, id: string): Promise<AuthorizationRecord> {
  if (!ID_PATTERN.test(id)) throw new AuthorizerError('authorization.not_found');
  const found = (await Promise.all([...ctx.instances.keys()].map((instanceId) => ctx.store.get(instanceId, id)))).find((r) => r !== null);
  if (!found) throw new AuthorizerError('authorization.not_found');
  return expireIfOverdue(ctx, found);
}

/** Sweep: expire up to `limit` overdue records; returns how many changed. */
export async function sweepExpired(ctx: AuthorizerContext, limit = 500): Promise<number> {
  const candidates = await ctx.store.listDueForExpiry(ctx.clock.now(), limit);
  let expired = 0;
  for (const { instanceId, id } of candidates) {
    if (!ctx.instances.has(instanceId)) continue;
    const record = await ctx.store.get(instanceId, id);
    if (!record) continue;
    const after = await expireIfOverdue(ctx, record);
    if (after.status === 'expired' && record.status !== 'expired') expired++;
  }
  return expired;
}
