import { createHash } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';
import { FORMAT_VERSION, unsupportedFormat } from './record-codec.js';
import { RecordFormatError } from './record-format-error.js';

/**
 * Compare-and-set on one authorization key, atomic because Redis runs a script without
 * interleaving other commands. Decodes the stored envelope, compares the record's version and
 * replaces the value keeping its TTL.
 *
 * KEYS[1] authorization key; ARGV[1] expected version; ARGV[2] new envelope;
 * ARGV[3] new expiresAt; ARGV[4] highest format version the caller reads.
 * Returns 0 (missing or version conflict), 1 (replaced), 2 (replaced, expiresAt changed).
 */
const SCRIPT = `
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
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
if doc.r.expiresAt ~= tonumber(ARGV[3]) then return 2 end
return 1
`;

const SHA = createHash('sha1').update(SCRIPT).digest('hex');

export type CasOutcome = 0 | 1 | 2;

/**
 * EVALSHA, falling back to EVAL when the server does not know the script yet (first call, or
 * after a restart / SCRIPT FLUSH). Uses plain commands so a caller's client is not modified.
 */
export async function runCompareAndSet(
  client: Redis | Cluster,
  key: string,
  expectedVersion: number,
  envelope: string,
  expiresAt: number,
): Promise<CasOutcome> {
  const args = [key, String(expectedVersion), envelope, String(expiresAt), String(FORMAT_VERSION)];
  let result: unknown;
  try {
    try {
      result = await client.evalsha(SHA, 1, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      result = await client.eval(SCRIPT, 1, ...args);
    }
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
