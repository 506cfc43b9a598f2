import type { CorsConfigInput } from '../config/cors-config.js';
import { ConfigError } from '../errors/config-error.js';

/**
 * App-level CORS from the environment, as the same `cors` object the middlewares take:
 * - `EXPRESS_CORS_ENABLED`: `true`/`1` turns CORS on, `false`/`0`/unset leaves it off.
 * - `EXPRESS_CORS_ORIGIN`: comma-separated origins (or `*`); unset keeps the default `["*"]`.
 * Every other field keeps its default; validation happens where the object is used (`cors(config)`).
 */
export function corsConfigFromEnv(env: Record<string, string | undefined> = process.env): CorsConfigInput {
  const flag = (env.EXPRESS_CORS_ENABLED ?? '').trim().toLowerCase();
  if (!['', 'true', '1', 'false', '0'].includes(flag)) {
    throw new ConfigError('Invalid environment:', [{ path: 'EXPRESS_CORS_ENABLED', message: 'must be true, false, 1 or 0' }]);
  }
  const origins = (env.EXPRESS_CORS_ORIGIN ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  return { enabled: flag === 'true' || flag === '1', ...(origins.length > 0 ? { origin: origins } : {}) };
}
