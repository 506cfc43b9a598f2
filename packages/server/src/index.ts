// The public API of @vp-authorizer/server. The `vp-authorizer-server` command is the package's bin.

// The settings from environment variables (shared with the example apps) and from a configuration file.
export {
  configFromEnv,
  redirectAllowed,
  EnvConfigError,
  LOG_LEVELS,
  type EnvConfig,
  type EnvProblem,
  type LogLevel,
  type MemoryStoreQuotaSetting,
  type DataRetentionSetting,
  type Pkcs11Setting,
  type SigningKeySetting,
} from './config-from-env.js';
export { readConfigFile, overlayEnvironment, configFileSchema, FILE_SETTINGS, MERGED_VARIABLES, type ConfigFile, type LoadedConfigFile } from './config-file.js';
export { loadServerSettings, DEFAULT_SERVER_PORT, type ServerSettings } from './server-settings.js';

// An authorizer and its store from the settings.
export { storeFromConfig, type StoreSettings, type StoreFromConfigOptions, type ConfiguredStore, type StoreLog } from './store-from-config.js';
export {
  authorizerFromConfig,
  instanceConfigFromEnv,
  mergeInstanceConfig,
  trustListsFromConfig,
  type AuthorizerSettings,
  type AuthorizerFromConfigOptions,
  type ConfiguredAuthorizer,
  type LoadedTrustLists,
} from './authorizer-from-config.js';

// The server: node:http, health and readiness, graceful shutdown, JSON logs.
export { startServer, DEFAULT_SHUTDOWN_TIMEOUT_MS, type StartServerOptions, type StandaloneServer } from './standalone-server.js';
export { jsonLogger, type JsonLogger, type LineSink } from './json-logger.js';
