import * as v from 'valibot';
import { constantTimeEqual } from '../crypto/secrets.js';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { Refusal, throwRefusal } from '../errors/refusal.js';
import { storeKey } from '../response-code/response-code.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import type { InstanceRuntime } from '../runtime/instance-runtime.js';
import { defineEndpoint } from './endpoint.js';
import { json, jsonOrRefusal } from './respond.js';
import { terminalStatusSchema } from './shared-schemas.js';

export const resolvedResponseCodeSchema = v.pipe(v.object({ authorization_id: v.string(), status: terminalStatusSchema }), v.title('ResolvedResponseCode'));
export type ResolvedResponseCode = v.InferOutput<typeof resolvedResponseCodeSchema>;

export const resolveResponseCodeBodySchema = v.object({
  response_code: v.pipe(v.string(), v.minLength(1), v.maxLength(512)),
  // Not in the hosted API's body: optional, so its clients keep working unchanged.
  authorization_id: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(512))),
});

/** Resolve a code once; throws every refusal (the typed method). See resolveOrRefuse. */
export const resolveResponseCode = (ctx: AuthorizerContext, instance: InstanceRuntime, body: ResolveBody): Promise<ResolvedResponseCode> =>
  resolveOrRefuse(ctx, instance, body).then(throwRefusal);

const NOT_FOUND = Refusal.of('response_code.not_found');

/**
 * Resolve a code once. Unknown, used, expired or another instance's code → 404, returned as a
 * refusal rather than thrown: it is the answer to every guess, so it should cost as little as any.
 *
 * Retry-safe: the code is read with `peek`, its record loaded, and only then deleted with
 * `consume`, the last store call. A store failure at any earlier step (503) leaves the code
 * resolvable; `consume` alone picks the one winner among concurrent resolves.
 *
 * Session binding (OpenID4VP 1.0 §13.3): with `authorization_id`, a code issued for another
 * authorization is refused AND consumed. A mismatch means the redirect reached a session that
 * did not start the flow, e.g. a request relayed from an attacker's session to a victim: leaving
 * the code alive would let the attacker obtain it (from the victim's URL) and redeem it in the
 * session it belongs to. Burning it costs at most a restart of a flow whose code has already
 * leaked, and burning needs the code itself, which the binding makes worthless to anyone else.
 */
async function resolveOrRefuse(ctx: AuthorizerContext, instance: InstanceRuntime, parsed: ResolveBody): Promise<ResolvedResponseCode | Refusal> {
  const expected = parsed.authorization_id;
  if (expected === undefined && instance.config.openId4vp.requireResponseCodeAuthorizationId) {
    throw new AuthorizerError('request.invalid_body', {
      errors: [{ pointer: '/authorization_id', detail: 'this instance requires the authorization_id the response code is expected to belong to' }],
    });
  }
  const instanceId = instance.id;
  const key = storeKey(instanceId, parsed.response_code);

  const entry = await ctx.store.peek(key);
  if (!entry || entry.instanceId !== instanceId) return NOT_FOUND;
  if (expected !== undefined && !constantTimeEqual(entry.authorizationId, expected)) {
    // Burn it (see above). If this consume fails the code stays, and a retry refuses it again.
    await ctx.store.consume(key);
    ctx.log['response_code.authorization_mismatch']?.({ instanceId });
    throw new AuthorizerError('response_code.authorization_mismatch', { action: 'Do not accept this response; start a new authorization for this user.' });
  }
  const record = await ctx.store.get(instanceId, entry.authorizationId);
  if (!record) return NOT_FOUND;

  const consumed = await ctx.store.consume(key);
  // Null: a concurrent resolve won. A different entry under the same key cannot be ours either.
  if (!consumed || consumed.instanceId !== instanceId || consumed.authorizationId !== entry.authorizationId) return NOT_FOUND;
  // Codes are only issued once an authorization is terminal, and terminal statuses never change.
  if (!v.is(terminalStatusSchema, record.status)) throw new AuthorizerError('server.internal_error');
  ctx.emit({ type: 'response_code.resolved', instanceId, authorizationId: record.id, status: record.status, at: ctx.clock.now() });
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
  description: 'Each code resolves once. With authorization_id (the id kept in the user\'s session), a code issued for another authorization is refused (400) and invalidated.',
  body: { contentType: 'application/json', schema: resolveResponseCodeBodySchema, required: true, parse: readResolveBody },
  responses: {
    200: { description: 'The authorization the code was issued for.', contentType: 'application/json', schema: resolvedResponseCodeSchema },
  },
  errors: [404, 503],
  errorDescriptions: { 400: 'Invalid body, or (response_code.authorization_mismatch) a code issued for another authorization: now used up.', 404: 'Response code not found, already used, or expired.' },
  run: ({ ctx, instance, body }) => json(200, resolveResponseCode(ctx, instance, body)),
  runOrRefuse: ({ ctx, instance, body }) => jsonOrRefusal(200, resolveOrRefuse(ctx, instance, body)),
});
