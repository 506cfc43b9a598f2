import type { AuthorizerStore, CorsConfigInput } from '@vp-authorizer/core';

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
  /** AUTHZ_ALLOWED_REDIRECT_URIS: the instance's openId4vp.allowedRedirectUris. */
  allowedRedirectUris?: string[];
  /** AUTHZ_DC_API_ALLOWED_ORIGINS: the instance's openId4vp.dcApi.allowedOrigins ("none": []). */
  dcApiAllowedOrigins?: string[];
  /** AUTHZ_RETENTION_AFTER_TERMINAL / _AFTER_READ (ms) / _MODE: the instance's openId4vp.dataRetention; undefined when none is set. */
  dataRetention?: { afterTerminal?: number; afterRead?: number; mode?: 'anonymize' | 'delete' };
  apiKey?: string;
  issuerRoots: string[];
  /** AUTHZ_TRUSTED_ISSUER_DIDS: DIDs and did:web domains added to the validator's trustedIssuers. */
  issuerDids: string[];
  /** AUTHZ_TRUST_LISTS, AUTHZ_TRUST_LIST_SIGNERS (PEM texts), AUTHZ_TRUST_LISTS_WAIT. */
  trustLists?: { sources: string[]; signers: string[]; wait: boolean };
  redisUrl?: string;
  /** POSTGRES_URL: the Postgres store (the examples apply its migrations at start). */
  postgresUrl?: string;
  /** AUTHZ_MEMORY_STORE_MAX_RECORDS / AUTHZ_MEMORY_STORE_MAX_BYTES; undefined when neither is set. */
  memoryStoreQuota?: { maxRecordsPerInstance?: number; maxBytesPerInstance?: number };
  /** AUTHZ_CLAIM_LEASE_MS: createAuthorizer's `claimLeaseMs`. */
  claimLeaseMs?: number;
  cors: CorsConfigInput;
  /** `localVerifier({ dataIntegrity })` from DATA_INTEGRITY_ENABLED, _CRYPTOSUITES and _CONTEXTS_FILE. */
  dataIntegrity: { enabled?: boolean; cryptosuites?: import('@vp-authorizer/local').DataIntegrityCryptosuite[]; contexts?: Record<string, Record<string, unknown>> };
  /** AUTHZ_PKCS11_MODULE, _TOKEN_LABEL, _KEY_LABEL, _PIN(_FILE), AUTHZ_SIGNING_CERT_CHAIN_FILE, AUTHZ_SIGNING_TRUST_ANCHOR_FILE. */
  pkcs11?: { module: string; tokenLabel: string; keyLabel: string; pin: string; certificateChain: string[]; trustAnchor?: string };
  /** AUTHZ_REGISTRATION_CERTS_FILE: the JWTs. */
  registrationCertificates?: string[];
  /** AUTHZ_READER_AUTH=signing, or AUTHZ_READER_AUTH_KEY_FILE + _CERT_CHAIN_FILE (PEM texts); AUTHZ_READER_AUTH_ALG. */
  readerAuth?: { identity: 'signing' | { privateKey: string; certificateChain: string[] }; alg?: 'ES256' | 'ESP256' };
}
export function configFromEnv(env: Record<string, string | undefined>, options: { defaultPort: number }): ExampleConfig;
export function storeFromConfig(config: { redisUrl?: string; postgresUrl?: string; memoryStoreQuota?: ExampleConfig['memoryStoreQuota'] }): Promise<{ store: AuthorizerStore | undefined; close(): Promise<void> }>;
export function instanceConfigFromEnv(
  config: { redirectUri?: string; allowedRedirectUris?: string[]; dcApiAllowedOrigins?: string[]; dataRetention?: ExampleConfig['dataRetention'] },
  defaults?: { redirectUri?: string },
): { openId4vp?: { redirectUri?: string; allowedRedirectUris?: string[]; dcApi?: { allowedOrigins: string[] }; dataRetention?: ExampleConfig['dataRetention'] } };
export function startOrExit<T>(start: () => Promise<T>): Promise<T>;
export function trustListsFromConfig(config: { trustLists?: ExampleConfig['trustLists'] }): Promise<import('@vp-authorizer/trust-lists').TrustLists | undefined>;
export function exampleAuthorizer(config: ExampleConfig, where: { origin: string; mountPath: string }): Promise<{ authorizer: import('@vp-authorizer/core').Authorizer; apiKey: string; trustLists: import('@vp-authorizer/trust-lists').TrustLists | undefined; close(): Promise<void> }>;
export function describeConfig(config: ExampleConfig, runtime: { apiKey: string; publicBaseUrl: string; defaults?: { redirectUri?: string; issuerRoots?: string } }): string;
