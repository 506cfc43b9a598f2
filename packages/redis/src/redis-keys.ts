/**
 * Key layout under a prefix (default `vpa:`):
 * - `<prefix>{a:<instanceId>:<id>}` one authorization. The braces are a Redis Cluster hash tag:
 *   every key of one authorization lands in one slot, so its Lua script is single-slot.
 * - `<prefix>c:<key>` one response code (`key` is already `<instanceId>:<hash>` from the core).
 * - `<prefix>expiry` sorted set of the records the sweep must look at, scored by their due time
 *   (`sweepDueAt`: open ones by expiry, finished ones by the erasure of their data; a hint, see redis-store).
 * Instance and id are percent-encoded so `:`, `{` or `}` in an instance id can neither collide
 * with another pair nor break the hash tag.
 */
export interface RedisKeys {
  authorization(instanceId: string, id: string): string;
  code(key: string): string;
  readonly expiry: string;
}

export function redisKeys(prefix: string): RedisKeys {
  return {
    authorization: (instanceId, id) => `${prefix}{a:${encodeURIComponent(instanceId)}:${encodeURIComponent(id)}}`,
    code: (key) => `${prefix}c:${key}`,
    expiry: `${prefix}expiry`,
  };
}

/** Expiry-index members name the record unambiguously. */
export const expiryMember = (instanceId: string, id: string): string => JSON.stringify([instanceId, id]);

export function parseExpiryMember(member: string): { instanceId: string; id: string } | undefined {
  try {
    const parsed: unknown = JSON.parse(member);
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === 'string' && typeof parsed[1] === 'string') {
      return { instanceId: parsed[0], id: parsed[1] };
    }
  } catch {
    // not ours: dropped by the caller
  }
  return undefined;
}
