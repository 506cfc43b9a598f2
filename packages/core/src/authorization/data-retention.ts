import { isTerminalStatus, type AuthorizationRecord } from '../model/authorization-record.js';
import type { PolicyError, PolicyResult } from '../model/policy-result.js';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { StoreUnavailableError } from '../errors/store-unavailable-error.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import type { InstanceRuntime } from '../runtime/instance-runtime.js';

/**
 * Retention of what a wallet disclosed (the instance's `openId4vp.dataRetention`), built on the
 * store contract alone, so every store that passes it honours the windows:
 * - the terminal transition and the relying party's first read set `eraseAt`, in the same
 *   compare-and-set; stores index a terminal record by it (`sweepDueAt`), so the sweep finds it;
 * - `delete` also shortens the record's TTL to end at `eraseAt`: the store drops it by itself;
 * - `anonymize` (and an erase request) replaces the record with `erased(record)`, once: the
 *   status never changes, and a record with `erasedAt` is never written with data again.
 */

/** Why data is erased: its window ended, or the relying party asked. */
export type ErasureCause = 'retention' | 'request';

/** Where a record a wallet took up leaves the store (its TTL, counted from creation; see instance-runtime). */
const recordEnd = (instance: InstanceRuntime, record: AuthorizationRecord): number => record.createdAt + instance.recordTtlMs;

/**
 * What a terminal transition of `current` adds under `dataRetention.afterTerminal`: the erasure
 * time, and in `delete` mode the TTL that ends the record then. Nothing for a record no wallet took
 * up (it holds nothing disclosed and keeps its shorter TTL), or when the window reaches past the record's end.
 */
export function retentionAtOutcome(instance: InstanceRuntime | undefined, current: AuthorizationRecord, now: number): { eraseAt: number; ttlMs: number | undefined } | undefined {
  const window = instance?.config.openId4vp.dataRetention.afterTerminal;
  if (instance === undefined || window === undefined || current.status === 'created') return undefined;
  const eraseAt = now + window;
  if (eraseAt >= recordEnd(instance, current)) return undefined;
  return { eraseAt, ttlMs: instance.config.openId4vp.dataRetention.mode === 'delete' ? window : undefined };
}

/** True when `record`'s data is due for erasure at `now` (and not erased yet). */
export const isErasureDue = (record: AuthorizationRecord, now: number): boolean =>
  record.eraseAt !== undefined && record.eraseAt <= now && record.erasedAt === undefined && isTerminalStatus(record.status);

/**
 * `record` without what the wallet disclosed: credentials and their claims, policy-result data,
 * problem details (whose `detail` may quote presented values), wallet metadata, the encryption
 * key. Kept: id, instance, status, the request as the relying party made it, every timestamp
 * (`updatedAt` stays the time of the outcome) and each result's path, policy, service and error
 * code, so the outcome can still be told and audited.
 */
export function erased(record: AuthorizationRecord, now: number): AuthorizationRecord {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (value === undefined || key === '__proto__' || key === 'encryptionKey' || key === 'eraseAt') continue;
    kept[key] = value;
  }
  const { walletMetadata: _walletMetadata, ...request } = record.request;
  return {
    ...(kept as unknown as AuthorizationRecord),
    version: record.version + 1,
    request,
    policyResults: record.policyResults.map(erasedResult),
    credentials: [],
    ...(record.error === undefined ? {} : { error: erasedProblem(record.error) }),
    erasedAt: now,
  };
}

const erasedResult = (result: PolicyResult): PolicyResult => ({
  path: result.path,
  policy: result.policy,
  service: result.service,
  // Exactly one of data and error stays set, as in every result.
  ...(result.error === undefined ? { data: {} } : { error: erasedProblem(result.error) }),
});

/** The problem's identity (type, title, status, code, reason) without anything quoting the presentation. */
function erasedProblem(error: PolicyError): PolicyError {
  const { type, title, status, code, vidosType, reason, attempts } = error;
  const kept: PolicyError = { type };
  if (title !== undefined) kept.title = title;
  if (status !== undefined) kept.status = status;
  if (code !== undefined) kept.code = code;
  if (vidosType !== undefined) kept.vidosType = vidosType;
  if (reason !== undefined) kept.reason = reason;
  if (attempts !== undefined) kept.attempts = attempts;
  return kept;
}

/** Compare-and-set rounds before giving up (503, retryable): only retention writes race on a terminal record, and they converge. */
const MAX_ROUNDS = 5;

/**
 * Erase the disclosed data of a terminal record now. `retention` in `delete` mode also ends the
 * record (a TTL of 1 ms: the store drops it); otherwise the erased record keeps its TTL, so its
 * outcome stays readable and a second erase request answers the same. Returns the record as it
 * then stands, or null once it has left the store.
 */
export async function erasePersonalData(ctx: AuthorizerContext, record: AuthorizationRecord, cause: ErasureCause): Promise<AuthorizationRecord | null> {
  const remove = cause === 'retention' && ctx.instances.get(record.instanceId)?.config.openId4vp.dataRetention.mode === 'delete';
  let current = record;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    // Terminal states never change; before one, nothing disclosed is stored.
    if (current.erasedAt !== undefined || !isTerminalStatus(current.status)) return current;
    const next = erased(current, ctx.clock.now());
    if (await (remove ? ctx.store.compareAndSet(next, current.version, 1) : ctx.store.compareAndSet(next, current.version))) {
      ctx.log['authorization.data_erased']?.({ instanceId: next.instanceId, authorizationId: next.id, cause, deleted: remove });
      return next;
    }
    const reread = await ctx.store.get(current.instanceId, current.id);
    if (reread === null) return null;
    current = reread;
  }
  throw new StoreUnavailableError('The authorization kept changing while its data was being erased; try again.');
}

/**
 * The relying party has read the claims or policy results of `record` (answered from it): under
 * `dataRetention.afterRead`, note the first read and bring `eraseAt` forward to `afterRead` from
 * now (never later than it was); a window of 0 erases at once. Without `afterRead`, no write.
 */
export async function noteFirstRead(ctx: AuthorizerContext, record: AuthorizationRecord): Promise<void> {
  const instance = ctx.instances.get(record.instanceId);
  const retention = instance?.config.openId4vp.dataRetention;
  if (instance === undefined || retention?.afterRead === undefined) return;
  let current: AuthorizationRecord | null = record;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (current === null || current.firstReadAt !== undefined || current.erasedAt !== undefined || !isTerminalStatus(current.status)) return;
    const now = ctx.clock.now();
    const byRead = now + retention.afterRead;
    const eraseAt = Math.min(current.eraseAt ?? Infinity, byRead);
    const moved = eraseAt < (current.eraseAt ?? recordEnd(instance, current));
    const next: AuthorizationRecord = { ...current, version: current.version + 1, firstReadAt: now, ...(moved ? { eraseAt } : {}) };
    const ttlMs = moved && retention.mode === 'delete' ? Math.max(1, eraseAt - now) : undefined;
    if (await (ttlMs === undefined ? ctx.store.compareAndSet(next, current.version) : ctx.store.compareAndSet(next, current.version, ttlMs))) {
      if (isErasureDue(next, now)) await erasePersonalData(ctx, next, 'retention');
      return;
    }
    current = await ctx.store.get(current.instanceId, current.id);
  }
}

/** `record`, whose disclosed data a relying party may read; 410 `authorization.data_erased` once it was erased. */
export function readableData(record: AuthorizationRecord): AuthorizationRecord {
  if (record.erasedAt !== undefined) throw new AuthorizerError('authorization.data_erased');
  return record;
}
