import * as v from 'valibot';
import { AuthorizerError } from '../errors/authorizer-error.js';
import type { AuthorizationRecord, AuthorizationStatus } from '../authorization/authorization-record.js';
import { randomId, sha256Base64url } from '../crypto/secrets.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';

/**
 * The store never sees a code: it is keyed by the SHA-256 of the code, scoped by instance, so
 * a lookup is a hash-table hit rather than a comparison of secrets, and a code presented to
 * another instance simply does not exist there.
 */
const storeKey = (instanceId: string, code: string) => `${instanceId}:${sha256Base64url(code)}`;

/** Issue a fresh 256-bit code for a finished authorization and return the wallet's redirect URI. */
export async function issueResponseCode(ctx: AuthorizerContext, record: AuthorizationRecord, redirectUri: string, ttlMs: number): Promise<string> {
  const code = randomId(32);
  await ctx.store.put(storeKey(record.instanceId, code), { instanceId: record.instanceId, authorizationId: record.id }, ttlMs);
  const url = new URL(redirectUri);
  url.searchParams.append('response_code', code);
  return url.toString();
}

const resolveBodySchema = v.object({ response_code: v.pipe(v.string(), v.minLength(1), v.maxLength(512)) });

/** Consume a code once; unknown, used, expired or another instance's code → 404. */
export async function resolveResponseCode(ctx: AuthorizerContext, instanceId: string, body: unknown): Promise<{ authorization_id: string; status: AuthorizationStatus }> {
  const parsed = v.safeParse(resolveBodySchema, body);
  if (!parsed.success) {
    throw new AuthorizerError('request.invalid_body', { errors: [{ pointer: '/response_code', detail: 'response_code must be a non-empty string' }] });
  }
  const entry = await ctx.store.consume(storeKey(instanceId, parsed.output.response_code));
  if (!entry || entry.instanceId !== instanceId) throw new AuthorizerError('response_code.not_found');
  const record = await ctx.store.get(instanceId, entry.authorizationId);
  if (!record) throw new AuthorizerError('response_code.not_found');
  ctx.emit({ type: 'response_code.resolved', instanceId, authorizationId: record.id, status: record.status, at: ctx.clock.now() });
  return { authorization_id: record.id, status: record.status };
}
