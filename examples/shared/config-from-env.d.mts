import type { ConfiguredAuthorizer, EnvConfig } from '@vp-authorizer/server';

export { configFromEnv, EnvConfigError, instanceConfigFromEnv, storeFromConfig, trustListsFromConfig, type EnvProblem } from '@vp-authorizer/server';
/** The examples' settings: what the environment sets. */
export type ExampleConfig = EnvConfig;
export function startOrExit<T>(start: () => Promise<T>): Promise<T>;
export function exampleAuthorizer(
  config: ExampleConfig,
  where: { origin: string; mountPath: string },
): Promise<{ authorizer: ConfiguredAuthorizer['authorizer']; apiKey: string; trustLists: ConfiguredAuthorizer['trustLists']; close(): Promise<void> }>;
export function describeConfig(config: ExampleConfig, runtime: { apiKey: string; publicBaseUrl: string; defaults?: { redirectUri?: string; issuerRoots?: string } }): string;
