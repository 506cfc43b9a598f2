import type { Cluster, Redis } from 'ioredis';
import { FORMAT_VERSION, unsupportedFormat } from './record-codec.js';
import { RecordFormatError } from './record-format-error.js';
import { luaScript, runScript } from './run-script.js';

/**
 * Compare-and-set on one authorization key, atomic because Redis runs a script without
 * interleaving other commands. Decodes the stored envelope, compares the record's version and
 * replaces the value keeping its TTL, or with a new TTL when one is given. With a second key (the expiry index: standalone Redis only,
 * where it may share a script with the record) it also moves the record's index entry, in the
 * same round trip; an index failure is ignored there as it is after a separate command (a hint).
 *
 * KEYS[1] authorization key; KEYS[2] (optional) expiry index;
 * ARGV[1] expected version; ARGV[2] new envelope; ARGV[3] new expiresAt;
 * ARGV[4] highest format version the caller reads; ARGV[5] new TTL in ms, or '' to keep it;
 * ARGV[6] index score, or '' to drop the entry (nothing due); ARGV[7] index member.
 * Returns 0 (missing or version conflict), 1 (replaced), 2 (replaced, expiresAt changed).
 */
const SCRIPT = luaScript(`
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local ok, doc = pcall(cjson.decode, raw)
if not ok or type(doc) ~= 'table' or type(doc.v) ~= 'number' then
  return redis.error_reply('VPA_FORMAT unreadable')
end
if doc.v > tonumber(ARGV[4]) then
  return redis.error_reply('VPA_FORMAT ' .. string.format('%d', doc.v))
end
if type(doc.r) ~= 'table' or type(doc.r.version) ~= 'number' then
  return redis.error_reply('VPA_FORMAT unreadable')
end
if doc.r.version ~= tonumber(ARGV[1]) then return 0 end
if ARGV[5] == '' then redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
else redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[5]) end
if KEYS[2] then
  if ARGV[6] == '' then redis.pcall('ZREM', KEYS[2], ARGV[7])
  else redis.pcall('ZADD', KEYS[2], ARGV[6], ARGV[7]) end
end
if doc.r.expiresAt ~= tonumber(ARGV[3]) then return 2 end
return 1
`);

export type CasOutcome = 0 | 1 | 2;

/** Where the record's index entry goes after a successful write: a score (due time), or dropped. */
export interface IndexMove {
  key: string;
  member: string;
  /** The record's due time (`sweepDueAt`); undefined drops the entry. */
  score: number | undefined;
}

export async function runCompareAndSet(
  client: Redis | Cluster,
  key: string,
  expectedVersion: number,
  envelope: string,
  expiresAt: number,
  /** Whole milliseconds the record is kept from now on; undefined keeps its TTL. */
  ttlMs: number | undefined,
  index?: IndexMove,
): Promise<CasOutcome> {
  const keys = index === undefined ? [key] : [key, index.key];
  const args = [String(expectedVersion), envelope, String(expiresAt), String(FORMAT_VERSION), ttlMs === undefined ? '' : String(ttlMs)];
  if (index !== undefined) args.push(index.score === undefined ? '' : String(index.score), index.member);
  let result: unknown;
  try {
    result = await runScript(client, SCRIPT, keys, args);
  } catch (error) {
    throw scriptFormatError(error) ?? error;
  }
  if (result !== 0 && result !== 1 && result !== 2) {
    throw new Error('Unexpected reply from the compare-and-set script.');
  }
  return result;
}

function scriptFormatError(error: unknown): RecordFormatError | undefined {
  if (!(error instanceof Error)) return undefined;
  const match = /VPA_FORMAT (\S+)/.exec(error.message);
  if (match === null) return undefined;
  const version = Number(match[1]);
  return Number.isInteger(version)
    ? unsupportedFormat(version)
    : new RecordFormatError('A stored authorization has an unreadable format; is another application writing under this key prefix?');
}
