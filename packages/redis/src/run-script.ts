import { createHash } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';

/** A Lua script with its SHA1, computed once. */
export interface LuaScript {
  readonly source: string;
  readonly sha: string;
}

export const luaScript = (source: string): LuaScript => ({ source, sha: createHash('sha1').update(source).digest('hex') });

/**
 * EVALSHA, falling back to EVAL when the server does not know the script yet (first call, or
 * after a restart / SCRIPT FLUSH). Plain commands, so a caller's client is not modified.
 */
export async function runScript(client: Redis | Cluster, script: LuaScript, keys: string[], args: string[]): Promise<unknown> {
  try {
    return await client.evalsha(script.sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return client.eval(script.source, keys.length, ...keys, ...args);
  }
}
