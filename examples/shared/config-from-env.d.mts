import type { AuthorizationStore, CodeStore, CorsConfigInput } from '@vp-authorizer/core';

export interface EnvProblem {
  variable: string;
  message: string;
}
export class EnvConfigError extends Error {
  constructor(problems: EnvProblem[]);
  readonly problems: EnvProblem[];
}
export interface ExampleConfig {
  port: number;
  host: string;
  publicBaseUrl?: string;
  redirectUri?: string;
  apiKey?: string;
  issuerRoots: string[];
  redisUrl?: string;
  cors: CorsConfigInput;
  /** `localVerifier({ dataIntegrity })` from DATA_INTEGRITY_ENABLED, _CRYPTOSUITES and _CONTEXTS_FILE. */
  dataIntegrity: { enabled?: boolean; cryptosuites?: import('@vp-authorizer/local').DataIntegrityCryptosuite[]; contexts?: Record<string, Record<string, unknown>> };
}
export function configFromEnv(env: Record<string, string | undefined>, options: { defaultPort: number }): ExampleConfig;
export function storeFromConfig(config: { redisUrl?: string }): Promise<{ store: (AuthorizationStore & CodeStore) | undefined; close(): Promise<void> }>;
export function instanceConfigFromEnv(config: { redirectUri?: string }, defaults?: { redirectUri?: string }): { openId4vp?: { redirectUri: string } };
export function startOrExit<T>(start: () => Promise<T>): Promise<T>;
export function exampleAuthorizer(config: ExampleConfig, where: { origin: string; mountPath: string }): Promise<{ authorizer: import('@vp-authorizer/core').Authorizer; apiKey: string; close(): Promise<void> }>;
export function describeConfig(config: ExampleConfig, runtime: { apiKey: string; publicBaseUrl: string; defaults?: { redirectUri?: string; issuerRoots?: string } }): string;
