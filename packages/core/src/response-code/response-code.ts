import type { AuthorizationRecord } from '../model/authorization-record.js';
import { randomId, sha256Base64url } from '../crypto/secrets.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import { redirectWithCode } from './redirect-with-code.js';

/**
 * The store never sees a code: it is keyed by the SHA-256 of the code, scoped by instance, so
 * a lookup is a hash-table hit rather than a comparison of secrets, and a code presented to
 * another instance simply does not exist there.
 */
export const storeKey = (instanceId: string, code: string) => `${instanceId}:${sha256Base64url(code)}`;

/** Issue a fresh 256-bit code for a finished authorization and return the wallet's redirect URI. */
export async function issueResponseCode(ctx: AuthorizerContext, record: AuthorizationRecord, redirectUri: string, ttlMs: number): Promise<string> {
  const code = randomId(32);
  await ctx.store.put(storeKey(record.instanceId, code), { instanceId: record.instanceId, authorizationId: record.id }, ttlMs);
  return redirectWithCode(redirectUri, code);
}
