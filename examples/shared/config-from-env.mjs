// The example apps' and the demo's configuration from environment variables. The loader itself is
// @vp-authorizer/server's (the standalone server reads the same variables): one loader, validated
// at start, every problem naming its variable, no message ever containing the API key.
// The table of variables is docs/examples-configuration.md.
import { authorizerFromConfig, EnvConfigError } from '@vp-authorizer/server';

export { configFromEnv, EnvConfigError, instanceConfigFromEnv, storeFromConfig, trustListsFromConfig } from '@vp-authorizer/server';

/**
 * The authorizer of the example apps: one instance `main` with the settings' API key (a random one
 * when unset), a generated dev signing chain (or AUTHZ_SIGNING_KEY_FILE, a PKCS#11 token, or an AWS KMS key), the
 * local validator and verifier trusting the settings' issuer roots and trusted lists (a throwaway
 * root, trusting nobody, when neither is set), the redirect URI, and the Redis or Postgres store
 * when REDIS_URL or POSTGRES_URL is set (the examples apply the Postgres migrations at start).
 * @param {import('@vp-authorizer/server').EnvConfig} config
 * @param {{ origin: string; mountPath: string }} where  the listening origin and where the authorizer is mounted
 */
export async function exampleAuthorizer(config, where) {
  const { authorizer, apiKey, trustLists, close } = await authorizerFromConfig(config, { ...where, store: { migrate: true } });
  return { authorizer, apiKey, trustLists, close };
}

/** What a `server.mjs` prints at start: the settings in effect, never the key from AUTHZ_API_KEY. */
export function describeConfig(config, { apiKey, publicBaseUrl, defaults = {} }) {
  return [
    `  public base URL: ${publicBaseUrl}`,
    `  API key:         ${config.apiKey ? '(from AUTHZ_API_KEY)' : `${apiKey}   (generated; set AUTHZ_API_KEY to choose one)`}`,
    `  redirect URI:    ${config.redirectUri ?? defaults.redirectUri ?? '(unset: wallets get {} — set AUTHZ_REDIRECT_URI for same-device flows)'}`,
    `  redirects to:    ${config.allowedRedirectUris?.join(', ') ?? '(any URI a create request names — set AUTHZ_ALLOWED_REDIRECT_URIS to bound them)'}`,
    `  DC API origins:  ${config.dcApiAllowedOrigins === undefined ? `${new URL(publicBaseUrl).origin} (default; AUTHZ_DC_API_ALLOWED_ORIGINS)` : config.dcApiAllowedOrigins.join(', ') || 'none (unsigned requests need expectedOrigins)'}`,
    `  issuer roots:    ${[defaults.issuerRoots, config.issuerRoots.length > 0 ? `${config.issuerRoots.length} from ISSUER_ROOT_PEM / ISSUER_ROOT_PEM_FILE` : undefined].filter(Boolean).join(' + ') || '(unset: a throwaway root that trusts nobody)'}`,
    `  issuer DIDs:     ${config.issuerDids.length > 0 ? `${config.issuerDids.join(', ')} (AUTHZ_TRUSTED_ISSUER_DIDS)` : '(none: AUTHZ_TRUSTED_ISSUER_DIDS)'}`,
    `  trusted lists:   ${config.trustLists ? `${config.trustLists.sources.join(', ')} (AUTHZ_TRUST_LISTS; ${config.trustLists.signers.length} list signer(s))` : '(none: AUTHZ_TRUST_LISTS)'}`,
    `  disclosed data:  ${describeRetention(config.dataRetention)}`,
    `  store:           ${config.postgresUrl ? 'PostgreSQL (POSTGRES_URL)' : config.redisUrl ? 'Redis (REDIS_URL)' : `memory (${describeQuota(config.memoryStoreQuota)})`}`,
    `  CORS:            ${config.cors.enabled ? `on for ${(config.cors.origin ?? ['*']).join(', ')}` : 'off (EXPRESS_CORS_ENABLED)'}`,
  ].join('\n');
}

/** How long claims are kept (openId4vp.dataRetention), as set. */
function describeRetention(retention) {
  if (!retention) return 'kept with the record (24 h after expiry; AUTHZ_RETENTION_AFTER_TERMINAL / _AFTER_READ / _MODE)';
  const windows = [
    retention.afterTerminal !== undefined ? `${retention.afterTerminal} ms after the outcome` : undefined,
    retention.afterRead !== undefined ? `${retention.afterRead} ms after the first read` : undefined,
  ].filter(Boolean);
  return `${retention.mode ?? 'anonymize'} ${windows.length > 0 ? windows.join(' or ') : 'when the record ends'}`;
}

/** The memory store's per-instance bounds as set, or its defaults. */
function describeQuota(quota = {}) {
  const records = quota.maxRecordsPerInstance ?? 100_000;
  const bytes = quota.maxBytesPerInstance ?? 256 * 1024 * 1024;
  return `per instance at most ${records} records and ${bytes} bytes; AUTHZ_MEMORY_STORE_MAX_RECORDS / _MAX_BYTES`;
}

/**
 * For a `server.mjs`: print an EnvConfigError as a plain message (no stack) and exit 1.
 * @param {() => Promise<T>} start
 * @template T
 */
export async function startOrExit(start) {
  try {
    return await start();
  } catch (error) {
    if (!(error instanceof EnvConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
