import { configFromEnv, EnvConfigError } from '../../shared/config-from-env.mjs';
import { createAuthorizerClient } from '@vp-authorizer/client';
import type { RpBackendOptions } from './rp-backend.js';

/**
 * The RP backend's options from the same variables as the example authorizers
 * (docs/examples-configuration.md): `PUBLIC_BASE_URL` is where the authorizer is reached,
 * `AUTHZ_API_KEY` its instance key, `AUTHZ_REDIRECT_URI` this backend's `/callback` (sent as the
 * create body's `redirectUri`). All three are required here; a missing or bad one throws an
 * `EnvConfigError` naming it (never the key).
 */
export function rpBackendOptionsFromEnv(
  env: Record<string, string | undefined>,
  { vct = 'urn:eudi:pid:1', claims = ['given_name', 'family_name'], fetch }: { vct?: string; claims?: string[]; fetch?: (request: Request) => Promise<Response> } = {},
): RpBackendOptions & { port: number; host: string } {
  const config = configFromEnv(env, { defaultPort: 3004 });
  const missing = (['PUBLIC_BASE_URL', 'AUTHZ_API_KEY', 'AUTHZ_REDIRECT_URI'] as const)
    .filter((name) => !env[name]?.trim())
    .map((variable) => ({ variable, message: 'is required by the RP backend' }));
  if (missing.length > 0 || !config.publicBaseUrl || !config.apiKey || !config.redirectUri) throw new EnvConfigError(missing);
  return {
    port: config.port,
    host: config.host,
    client: createAuthorizerClient({ baseUrl: config.publicBaseUrl, apiKey: config.apiKey, ...(fetch ? { fetch } : {}) }),
    callbackUrl: config.redirectUri,
    vct,
    claims,
  };
}
