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
  /** AUTHZ_TRUST_LISTS, AUTHZ_TRUST_LIST_SIGNERS (PEM texts), AUTHZ_TRUST_LISTS_WAIT. */
  trustLists?: { sources: string[]; signers: string[]; wait: boolean };
  redisUrl?: string;
  cors: CorsConfigInput;
}
export function configFromEnv(env: Record<string, string | undefined>, options: { defaultPort: number }): ExampleConfig;
export function storeFromConfig(config: { redisUrl?: string }): Promise<{ store: (AuthorizationStore & CodeStore) | undefined; close(): Promise<void> }>;
export function instanceConfigFromEnv(config: { redirectUri?: string }, defaults?: { redirectUri?: string }): { openId4vp?: { redirectUri: string } };
export function startOrExit<T>(start: () => Promise<T>): Promise<T>;
export function trustListsFromConfig(config: { trustLists?: ExampleConfig['trustLists'] }): Promise<import('@vp-authorizer/trust-lists').TrustLists | undefined>;
export function exampleAuthorizer(config: ExampleConfig, where: { origin: string; mountPath: string }): Promise<{ authorizer: import('@vp-authorizer/core').Authorizer; apiKey: string; trustLists: import('@vp-authorizer/trust-lists').TrustLists | undefined; close(): Promise<void> }>;
export function describeConfig(config: ExampleConfig, runtime: { apiKey: string; publicBaseUrl: string; defaults?: { redirectUri?: string; issuerRoots?: string } }): string;
