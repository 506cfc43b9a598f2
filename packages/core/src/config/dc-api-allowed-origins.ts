import type { InstanceConfig } from './instance-config.js';

/**
 * The origins an instance accepts unsigned DC API responses from when a create request names no
 * `expectedOrigins`: its `openId4vp.dcApi.allowedOrigins` when set (`[]` included: none), else a
 * default that works for the usual deployments and never allows every origin. The page calling
 * `navigator.credentials.get` is the relying party's, which in the usual embedding is served from
 * the authorizer's own origin (`publicBaseUrl`), or from an origin the instance lets call it from
 * the browser (its CORS origins, when CORS is enabled; "*" is no origin and is left out).
 */
export function dcApiAllowedOrigins(config: InstanceConfig, publicBaseUrl: string): readonly string[] {
  const configured = config.openId4vp.dcApi.allowedOrigins;
  if (configured !== undefined) return configured;
  const origins = new Set([new URL(publicBaseUrl).origin]);
  if (config.cors.enabled) for (const origin of config.cors.origin) if (origin !== '*') origins.add(origin);
  return [...origins];
}
