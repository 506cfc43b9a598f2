import type { Cluster, Redis } from 'ioredis';
import type { OutboxDelivery, OutboxLease, OutboxRef, WebhookOutbox } from '@vp-authorizer/core';
import { FORMAT_VERSION, unsupportedFormat } from './record-codec.js';
import { RecordFormatError } from './record-format-error.js';
import { luaScript, runScript } from './run-script.js';

/**
 * The webhook outbox on Redis: five keys under one hash tag (`<prefix>{w}:…`), so that each
 * method is one Lua script (atomic, and single-slot under Redis Cluster):
 * - `deliveries` hash: member → the delivery as `{"v":1,"d":{…}}` (attempts aside);
 * - `holders` hash: member → lease holder; `attempts` hash: member → attempts recorded;
 * - `leases` sorted set: member scored by its lease end (epoch ms): takeover reads its head;
 * - `counts` hash: instance id → deliveries it holds (the per-instance bound).
 * A member is the JSON pair `[instanceId, webhookId]`. Nothing here has a TTL: a delivery leaves
 * when its holder removes it (delivered, given up, dropped).
 * A sixth key, the `quarantine` hash (member → stored value), keeps a delivery takeover could not
 * decode (a newer format during a rolling upgrade, a corrupt value): moved aside so that it neither
 * blocks the good ones nor is re-leased every round, and kept for an operator to inspect or restore.
 */
export interface OutboxKeys {
  deliveries: string;
  holders: string;
  attempts: string;
  leases: string;
  counts: string;
  quarantine: string;
}

export const outboxKeys = (prefix: string): OutboxKeys => ({
  deliveries: `${prefix}{w}:deliveries`,
  holders: `${prefix}{w}:holders`,
  attempts: `${prefix}{w}:attempts`,
  leases: `${prefix}{w}:leases`,
  counts: `${prefix}{w}:counts`,
  quarantine: `${prefix}{w}:quarantine`,
});

const ADD = luaScript(`
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 'duplicate' end
if tonumber(redis.call('HGET', KEYS[5], ARGV[2]) or '0') >= tonumber(ARGV[7]) then return 'full' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[5])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[4])
redis.call('ZADD', KEYS[4], ARGV[6], ARGV[1])
redis.call('HINCRBY', KEYS[5], ARGV[2], 1)
return 'queued'
`);

const RENEW = luaScript(`
local renewed = 0
for i = 3, #ARGV do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[1] then
    redis.call('ZADD', KEYS[2], ARGV[2], ARGV[i])
    renewed = renewed + 1
  end
end
return renewed
`);

const TAKE_OVER = luaScript(`
local members = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[4]))
local taken = {}
for _, member in ipairs(members) do
  local value = redis.call('HGET', KEYS[1], member)
  if value then
    redis.call('HSET', KEYS[2], member, ARGV[2])
    redis.call('ZADD', KEYS[4], ARGV[3], member)
    taken[#taken + 1] = member
    taken[#taken + 1] = value
    taken[#taken + 1] = redis.call('HGET', KEYS[3], member) or '0'
  else
    redis.call('ZREM', KEYS[4], member)
  end
end
return taken
`);

const RECORD_ATTEMPTS = luaScript(`
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return 1
`);

const REMOVE = luaScript(`
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
if redis.call('HINCRBY', KEYS[5], ARGV[3], -1) <= 0 then redis.call('HDEL', KEYS[5], ARGV[3]) end
return 1
`);

// Moves a delivery the caller holds (it just took it over) into the quarantine hash and frees its
// slot in the per-instance count.
const QUARANTINE = luaScript(`
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then return 0 end
local value = redis.call('HGET', KEYS[1], ARGV[1])
if value then redis.call('HSET', KEYS[6], ARGV[1], value) end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
if ARGV[3] ~= '' and redis.call('HINCRBY', KEYS[5], ARGV[3], -1) <= 0 then redis.call('HDEL', KEYS[5], ARGV[3]) end
return 1
`);

const member = (ref: OutboxRef): string => JSON.stringify([ref.instanceId, ref.id]);

/** The instance id of a member (`[instanceId, webhookId]`), '' when the member is not that shape. */
function instanceOf(name: string): string {
  try {
    const pair = JSON.parse(name) as unknown;
    return Array.isArray(pair) && typeof pair[0] === 'string' ? pair[0] : '';
  } catch {
    return '';
  }
}

function encodeDelivery(delivery: OutboxDelivery): string {
  const { attempts: _attempts, ...rest } = delivery;
  return JSON.stringify({ v: FORMAT_VERSION, d: rest });
}

function decodeDelivery(raw: string, attempts: string): OutboxDelivery {
  let envelope: { v?: unknown; d?: Record<string, unknown> };
  try {
    envelope = JSON.parse(raw) as typeof envelope;
  } catch {
    throw new RecordFormatError('A stored webhook delivery is not JSON.', FORMAT_VERSION);
  }
  if (typeof envelope.v === 'number' && envelope.v > FORMAT_VERSION) throw unsupportedFormat(envelope.v);
  const d = envelope.d;
  if (d === undefined || typeof d.instanceId !== 'string' || typeof d.id !== 'string' || typeof d.body !== 'string' || typeof d.url !== 'string') {
    throw new RecordFormatError('A stored webhook delivery lacks instanceId, id, url or body.', FORMAT_VERSION);
  }
  return { ...(d as unknown as Omit<OutboxDelivery, 'attempts'>), attempts: Number(attempts) };
}

/** The outbox methods of the Redis store; `run` bounds each call in time and maps failures. */
export function redisWebhookOutbox(client: Redis | Cluster, keys: OutboxKeys, run: <T>(operation: () => Promise<T>) => Promise<T>): WebhookOutbox {
  const all = [keys.deliveries, keys.holders, keys.attempts, keys.leases, keys.counts];
  return {
    addWebhook: (delivery, lease, maxPerInstance) =>
      run(async () => {
        const reply = await runScript(client, ADD, all, [member(delivery), delivery.instanceId, encodeDelivery(delivery), String(delivery.attempts), lease.holder, String(lease.until), String(maxPerInstance)]);
        if (reply !== 'queued' && reply !== 'duplicate' && reply !== 'full') throw new Error('Unexpected reply from the outbox add script.');
        return reply as 'queued' | 'duplicate' | 'full';
      }),

    renewWebhooks: (refs: readonly OutboxRef[], lease: OutboxLease) =>
      run(async () => (refs.length === 0 ? 0 : Number(await runScript(client, RENEW, [keys.holders, keys.leases], [lease.holder, String(lease.until), ...refs.map(member)])))),

    takeOverWebhooks: (now, lease, limit, onUnreadable) =>
      run(async () => {
        if (limit < 1) return [];
        const reply = (await runScript(client, TAKE_OVER, [keys.deliveries, keys.holders, keys.attempts, keys.leases], [String(now), lease.holder, String(lease.until), String(Math.floor(limit))])) as string[];
        const taken: OutboxDelivery[] = [];
        // Each entry on its own: one that cannot be decoded must not cost the others their adoption.
        for (let i = 0; i < reply.length; i += 3) {
          const name = reply[i]!;
          try {
            taken.push(decodeDelivery(reply[i + 1]!, reply[i + 2]!));
          } catch (error) {
            await runScript(client, QUARANTINE, [...all, keys.quarantine], [name, lease.holder, instanceOf(name)]);
            onUnreadable?.(error);
          }
        }
        return taken;
      }),

    recordWebhookAttempts: (ref, holder, attempts) =>
      run(async () => (await runScript(client, RECORD_ATTEMPTS, [keys.holders, keys.attempts], [member(ref), holder, String(attempts)])) === 1),

    removeWebhook: (ref, holder) => run(async () => (await runScript(client, REMOVE, all, [member(ref), holder, ref.instanceId])) === 1),
  };
}
