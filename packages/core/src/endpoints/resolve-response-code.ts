import * as v from 'valibot';
import { constantTimeEqual } from '../crypto/secrets.js';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { storeKey } from '../response-code/response-code.js';
import { RESOLVE_REPLAY_WINDOW_MS, idempotencyKeyHash, idempotencyKeySchema, isIdempotencyKey, receiptKey, resolvedByKey } from '../response-code/code-resolution.js';
import type { AuthorizationRecord } from '../model/authorization-record.js';
import type { ResponseCodeEntry } from '../model/authorizer-store.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import type { InstanceRuntime } from '../runtime/instance-runtime.js';
import { defineEndpoint } from './endpoint.js';
import { json } from './respond.js';
import { terminalStatusSchema } from './shared-schemas.js';

export const resolvedResponseCodeSchema = v.pipe(v.object({ authorization_id: v.string(), status: terminalStatusSchema }), v.title('ResolvedResponseCode'));
export type ResolvedResponseCode = v.InferOutput<typeof resolvedResponseCodeSchema>;

export const resolveResponseCodeBodySchema = v.object({
  response_code: v.pipe(v.string(), v.minLength(1), v.maxLength(512)),
  // Not in the hosted API's body: optional, so its clients keep working unchanged.
  authorization_id: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(512))),
});

/** Unknown, used, expired or another instance's code: the one answer to every guess. */
const notFound = () => new AuthorizerError('response_code.not_found');

/**
 * Resolve a code once. Unknown, used, expired or another instance's code → 404.
 *
 * Retry-safe: the code is read with `peek` and its record loaded; the winner among concurrent
 * resolves is the one whose compare-and-set marks the record resolved (`responseCodeResolved`),
 * and only then is the code deleted with `consume`. A store failure before the mark (503) leaves
 * the code resolvable. A resolve without `Idempotency-Key` whose mark landed but whose answer was
 * lost cannot be told from another caller: its retry gets 404 (at most once). With a key, the
 * mark carries the key's hash and a pointer to the record is left beside the code (`receiptKey`),
 * so a retry with the same key within RESOLVE_REPLAY_WINDOW_MS is answered the same result again;
 * any other caller, with another key or none, gets 404. Another keyless resolve may still finish
 * a keyless mark (the same retry-safety as before marks existed).
 *
 * Session binding (OpenID4VP 1.0 §13.3): with `authorization_id`, a code issued for another
 * authorization is refused AND consumed. A mismatch means the redirect reached a session that
 * did not start the flow, e.g. a request relayed from an attacker's session to a victim: leaving
 * the code alive would let the attacker obtain it (from the victim's URL) and redeem it in the
 * session it belongs to. Burning it costs at most a restart of a flow whose code has already
 * leaked, and burning needs the code itself, which the binding makes worthless to anyone else.
 */
export async function resolveResponseCode(ctx: AuthorizerContext, instance: InstanceRuntime, parsed: ResolveBody, idempotencyKey?: string): Promise<ResolvedResponseCode> {
  const expected = parsed.authorization_id;
  if (expected === undefined && instance.config.openId4vp.requireResponseCodeAuthorizationId) {
    throw new AuthorizerError('request.invalid_body', {
      errors: [{ pointer: '/authorization_id', detail: 'this instance requires the authorization_id the response code is expected to belong to' }],
    });
  }
  if (idempotencyKey !== undefined && !isIdempotencyKey(idempotencyKey)) throw new AuthorizerError('request.invalid_idempotency_key');
  const instanceId = instance.id;
  const key = storeKey(instanceId, parsed.response_code);
  const keyHash = idempotencyKey === undefined ? undefined : idempotencyKeyHash(key, idempotencyKey);

  const entry = await ctx.store.peek(key);
  if (!entry || entry.instanceId !== instanceId) {
    if (keyHash === undefined) throw notFound();
    return replay(ctx, instanceId, key, keyHash, expected);
  }
  if (expected !== undefined && !constantTimeEqual(entry.authorizationId, expected)) {
    // Burn it (see above). If this consume fails the code stays, and a retry refuses it again.
    await ctx.store.consume(key);
    ctx.log['response_code.authorization_mismatch']?.({ instanceId });
    throw new AuthorizerError('response_code.authorization_mismatch', { action: 'Do not accept this response; start a new authorization for this user.' });
  }
  const record = await ctx.store.get(instanceId, entry.authorizationId);
  if (!record) throw notFound();
  // Codes are only issued once an authorization is terminal, and terminal statuses never change.
  if (!v.is(terminalStatusSchema, record.status)) throw new AuthorizerError('server.internal_error');

  const marked = await markResolved(ctx, record, key, entry, keyHash);
  if (!marked) throw notFound();
  const consumed = await ctx.store.consume(key);
  // Null: the code was burned by a mismatching resolve, or consumed by a process that does not mark.
  if (!consumed || consumed.instanceId !== instanceId || consumed.authorizationId !== entry.authorizationId) {
    // A keyed mark is voided so that no retry replays a result this caller never won.
    if (keyHash !== undefined) await ctx.store.compareAndSet({ ...marked, version: marked.version + 1, responseCodeResolved: { ...marked.responseCodeResolved!, void: true } }, marked.version);
    throw notFound();
  }
  ctx.emit({ type: 'response_code.resolved', instanceId, authorizationId: record.id, status: record.status, at: ctx.clock.now() });
  return { authorization_id: record.id, status: record.status };
}

/**
 * Mark `record` resolved by this caller (compare-and-set, status unchanged); the marked record, or
 * null when another caller holds the mark. A keyless caller may finish a keyless mark (the code
 * is still there: `consume` picks the winner among keyless callers, as it always did); a keyed
 * caller finds its own mark (its earlier attempt got that far).
 */
async function markResolved(ctx: AuthorizerContext, record: AuthorizationRecord, key: string, entry: ResponseCodeEntry, keyHash: string | undefined): Promise<AuthorizationRecord | null> {
  let current = record;
  for (let attempt = 0; attempt < 3; attempt++) {
    const mark = current.responseCodeResolved;
    if (mark) return (keyHash === undefined ? mark.keyHash === undefined : mark.keyHash === keyHash) && !mark.void ? current : null;
    // A retry that finds the code gone reaches the record through this pointer.
    if (keyHash !== undefined) await ctx.store.put(receiptKey(key), entry, RESOLVE_REPLAY_WINDOW_MS);
    const next: AuthorizationRecord = { ...current, version: current.version + 1, responseCodeResolved: { at: ctx.clock.now(), ...(keyHash !== undefined ? { keyHash } : {}) } };
    if (await ctx.store.compareAndSet(next, current.version)) return next;
    const reread = await ctx.store.get(current.instanceId, current.id);
    if (!reread) return null;
    current = reread;
  }
  return null;
}

/** The code is gone: answer a keyed retry whose earlier attempt won, within the window; 404 otherwise. */
async function replay(ctx: AuthorizerContext, instanceId: string, key: string, keyHash: string, expected: string | undefined): Promise<ResolvedResponseCode> {
  const pointer = await ctx.store.peek(receiptKey(key));
  if (!pointer || pointer.instanceId !== instanceId) throw notFound();
  if (expected !== undefined && !constantTimeEqual(pointer.authorizationId, expected)) throw notFound();
  const record = await ctx.store.get(instanceId, pointer.authorizationId);
  if (!record || !resolvedByKey(record, keyHash, ctx.clock.now()) || !v.is(terminalStatusSchema, record.status)) throw notFound();
  return { authorization_id: record.id, status: record.status };
}

export type ResolveBody = v.InferOutput<typeof resolveResponseCodeBodySchema>;

/** The body as the schema reads it, its first problem named in the words clients know. */
export function readResolveBody(body: unknown): ResolveBody {
  const parsed = v.safeParse(resolveResponseCodeBodySchema, body);
  if (!parsed.success) {
    const pointer = `/${v.getDotPath(parsed.issues[0]) ?? 'response_code'}`;
    const detail = pointer === '/authorization_id' ? 'authorization_id must be a non-empty string when present' : 'response_code must be a non-empty string';
    throw new AuthorizerError('request.invalid_body', { errors: [{ pointer, detail }] });
  }
  return parsed.output;
}

export const resolveResponseCodeEndpoint = defineEndpoint({
  operationId: 'resolveResponseCode',
  name: 'response_code.resolve',
  method: 'POST',
  path: '/openid4/vp/v1_0/response-code/resolve',
  audience: 'rp',
  summary: 'Resolve the one-time response_code of a wallet redirect',
  description:
    'Each code resolves once. With authorization_id (the id kept in the user\'s session), a code issued for another authorization is refused (400) and invalidated. With an Idempotency-Key header, a retry with the same key within 60 s (a reply lost on the way) is answered the same result again; every other caller gets 404.',
  headers: v.object({ 'Idempotency-Key': v.optional(idempotencyKeySchema) }),
  body: { contentType: 'application/json', schema: resolveResponseCodeBodySchema, required: true, parse: readResolveBody },
  responses: {
    200: { description: 'The authorization the code was issued for.', contentType: 'application/json', schema: resolvedResponseCodeSchema },
  },
  errors: [404, 503],
  errorDescriptions: { 400: 'Invalid body, an invalid Idempotency-Key header (request.invalid_idempotency_key), or (response_code.authorization_mismatch) a code issued for another authorization: now used up.', 404: 'Response code not found, already used, or expired.' },
  run: ({ ctx, request, instance, body }) => json(200, resolveResponseCode(ctx, instance, body, request.headers.get('idempotency-key') ?? undefined)),
});
