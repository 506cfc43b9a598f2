import type { CorsConfigInput } from '@vp-authorizer/core';
import type { AuthorizerSettings } from './authorizer-from-config.js';
import { memberOf, overlayEnvironment, readConfigFile } from './config-file.js';
import { configFromEnv, EnvConfigError } from './config-from-env.js';

/** The standalone server's port when neither PORT nor the file's `port` sets one. */
export const DEFAULT_SERVER_PORT = 8080;

/** Everything the standalone server runs with. */
export interface ServerSettings extends AuthorizerSettings {
  /** The configuration file read, if any (absolute path). */
  configFile?: string;
}

/**
 * The server's settings: the configuration file (`configFile`, else AUTHZ_CONFIG_FILE), with the
 * environment over it (see overlayEnvironment), checked by the one loader of the environment.
 * Throws EnvConfigError naming each bad variable, or the file member it came from; ConfigError for
 * a file that cannot be read or has unknown members.
 */
export function loadServerSettings({ env, configFile }: { env: Record<string, string | undefined>; configFile?: string }): ServerSettings {
  const path = configFile ?? (env.AUTHZ_CONFIG_FILE?.trim() || undefined);
  const file = path !== undefined ? readConfigFile(path) : undefined;
  const { variables, fromFile } = overlayEnvironment(file?.variables ?? {}, env);
  let config;
  try {
    config = configFromEnv(variables, { defaultPort: DEFAULT_SERVER_PORT });
  } catch (error) {
    if (!(error instanceof EnvConfigError) || !file) throw error;
    // A problem with a value the file set names the file's member, not a variable the user never wrote.
    const problems = error.problems.map((p) => (fromFile.has(p.variable) ? { ...p, variable: `${memberOf(p.variable) ?? p.variable} (${file.path})` } : p));
    throw new EnvConfigError(problems, 'Invalid configuration');
  }
  let instanceConfig = file?.instanceConfig;
  // EXPRESS_CORS_* set in the environment replace the file's cors (browsers then may send Authorization).
  if (env.EXPRESS_CORS_ENABLED !== undefined && env.EXPRESS_CORS_ENABLED.trim() !== '') {
    const cors: CorsConfigInput = { ...config.cors, allowHeaders: ['Authorization'] };
    instanceConfig = { ...(instanceConfig ?? {}), cors };
  }
  return {
    ...config,
    ...(file?.instanceId !== undefined ? { instanceId: file.instanceId } : {}),
    ...(file?.apiKeys !== undefined ? { apiKeys: file.apiKeys } : {}),
    ...(instanceConfig !== undefined ? { instanceConfig } : {}),
    ...(file ? { configFile: file.path } : {}),
  };
}
