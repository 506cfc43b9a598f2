import type { Redis } from 'ioredis';
import { luaScript, runScript } from './run-script.js';

/**
 * Create on standalone Redis in one round trip: refuses an existing key, indexes an open record
 * (ZADD NX, keeping the original score of any entry already there), then writes the record with
 * its TTL. Atomic, and the index comes first as in the two-command form (Redis Cluster, where the
 * index lives in another slot): an index failure aborts the script before the record exists.
 *
 * KEYS[1] authorization key; KEYS[2] (optional: open records) expiry index;
 * ARGV[1] envelope; ARGV[2] TTL in ms; ARGV[3] index score; ARGV[4] index member.
 * Returns 1 (created) or 0 (the key exists).
 */
const SCRIPT = luaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if KEYS[2] then redis.call('ZADD', KEYS[2], 'NX', ARGV[3], ARGV[4]) end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`);

export async function runCreate(
  client: Redis,
  key: string,
  envelope: string,
  ttlMs: number,
  index: { key: string; score: number; member: string } | undefined,
): Promise<boolean> {
  const result = await runScript(client, SCRIPT, index === undefined ? [key] : [key, index.key], index === undefined ? [envelope, String(ttlMs)] : [envelope, String(ttlMs), String(index.score), index.member]);
  if (result !== 0 && result !== 1) throw new Error('Unexpected reply from the create script.');
  return result === 1;
}
