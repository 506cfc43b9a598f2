import { randomBytes } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { Redis } from 'ioredis';

/**
 * REDIS_URL from scripts/with-redis.mjs, or undefined after a loud warning saying why the Redis
 * suites of `file` are skipped. Refuses anything but a loopback Redis: tests never leave the host.
 */
export function redisUrlForTests(file: string): string | undefined {
  const url = process.env.REDIS_URL;
  if (url === undefined || url === '') {
    console.warn(`\n${'='.repeat(100)}\n  ${skipReason()}\n  (skipped: ${file})\n${'='.repeat(100)}\n`);
    return undefined;
  }
  const { hostname } = new URL(url);
  if (hostname !== '127.0.0.1') {
    throw new Error(`Redis tests only talk to 127.0.0.1; REDIS_URL points at ${hostname}.`);
  }
  return url;
}

function skipReason(): string {
  return redisServerPath() !== undefined
    ? 'REDIS SUITE SKIPPED: REDIS_URL is not set; run the tests through `node scripts/with-redis.mjs <command>` (it starts redis-server)'
    : 'REDIS SUITE SKIPPED: redis-server not found on PATH (install: apt-get install -y redis-server)';
}

/** Absolute path of redis-server on PATH, if any. */
export function redisServerPath(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    try {
      accessSync(join(dir, 'redis-server'), constants.X_OK);
      return join(dir, 'redis-server');
    } catch {
      // not here
    }
  }
  return undefined;
}

/** A key prefix no other test uses. */
export const testPrefix = (): string => `vpa-test:${randomBytes(6).toString('hex')}:`;

export function testClient(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 1 });
}

/** Test cleanup only (the store itself never scans): deletes every key under `prefix`. */
export async function deleteKeys(client: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, found] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (found.length > 0) await client.unlink(...found);
    cursor = next;
  } while (cursor !== '0');
}
