import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import * as v from 'valibot';
import type { InstanceConfigInput } from '@vp-authorizer/core';
import { ConfigError } from '@vp-authorizer/core';
import { instanceConfigSchema, parseConfig } from '@vp-authorizer/core/internal';

// The configuration file is the environment's settings written as JSON, plus what only a file can
// hold (the instance configuration objects of the hosted API, several API keys). Each setting the
// environment also has maps to its variable in FILE_SETTINGS, and goes through the same loader.

const list = v.array(v.string());
const flag = v.boolean();
const whole = v.pipe(v.number(), v.integer(), v.minValue(0));

/** The configuration file's schema: unknown members are refused with the closest known name. */
export const configFileSchema = v.object({
  /** A JSON Schema reference for editors; ignored. */
  $schema: v.optional(v.string()),
  port: v.optional(v.pipe(whole, v.maxValue(65535))),
  host: v.optional(v.string()),
  publicBaseUrl: v.optional(v.string()),
  /** How long a shutdown waits for requests in flight (ms, default 10000). */
  shutdownTimeoutMs: v.optional(v.pipe(whole, v.maxValue(600_000))),
  logLevel: v.optional(v.picklist(['debug', 'info', 'warn', 'error'])),
  claimLeaseMs: v.optional(whole),
  instance: v.optional(
    v.object({
      id: v.optional(v.string()),
      apiKeys: v.optional(list),
      /** The hosted API's instance configuration: cors, policies, openId4vp, didMethods. */
      config: instanceConfigSchema,
      registrationCertificateFiles: v.optional(list),
    }),
  ),
  signing: v.optional(
    v.object({
      keyFile: v.optional(v.string()),
      certificateChainFile: v.optional(v.string()),
      trustAnchorFile: v.optional(v.string()),
      pkcs11: v.optional(v.object({ module: v.string(), tokenLabel: v.string(), keyLabel: v.string(), pinFile: v.string() })),
      awsKms: v.optional(v.object({ keyId: v.string(), region: v.string(), endpoint: v.optional(v.string()) })),
    }),
  ),
  /**
   * ReaderAuth of ISO/IEC 18013-7 Annex C (org-iso-mdoc) requests: signed with the request-signing
   * identity (`identity: "signing"`), or with a reader key and its certificate chain (PEM files).
   */
  readerAuth: v.optional(
    v.object({
      identity: v.optional(v.picklist(['signing'])),
      keyFile: v.optional(v.string()),
      certificateChainFile: v.optional(v.string()),
      alg: v.optional(v.picklist(['ES256', 'ESP256'])),
    }),
  ),
  trust: v.optional(
    v.object({
      issuerRootFiles: v.optional(list),
      issuerDids: v.optional(list),
      trustLists: v.optional(v.object({ sources: list, signerFiles: list, wait: v.optional(flag) })),
    }),
  ),
  dataIntegrity: v.optional(
    v.object({
      enabled: v.optional(flag),
      cryptosuites: v.optional(list),
      contextFiles: v.optional(list),
      maxDepth: v.optional(whole),
      maxValues: v.optional(whole),
      maxArrayLength: v.optional(whole),
      maxBlankNodes: v.optional(whole),
      maxEmbeddedContexts: v.optional(whole),
      maxTermDefinitions: v.optional(whole),
      canonicalizationTimeoutMs: v.optional(whole),
    }),
  ),
  store: v.optional(
    v.variant('type', [
      v.object({ type: v.literal('memory'), maxRecordsPerInstance: v.optional(whole), maxBytesPerInstance: v.optional(whole) }),
      v.object({ type: v.literal('redis'), url: v.string() }),
      v.object({ type: v.literal('postgres'), url: v.string(), migrate: v.optional(flag) }),
    ]),
  ),
});

export type ConfigFile = v.InferOutput<typeof configFileSchema>;

type Kind = 'text' | 'number' | 'flag' | 'list' | 'paths' | 'path';
/**
 * Each file member that the environment also sets, with its variable. `paths`/`path`: resolved
 * against the file's folder. Lists are written comma-separated for the loader.
 */
export const FILE_SETTINGS: readonly { member: string; variable: string; kind: Kind }[] = [
  { member: 'port', variable: 'PORT', kind: 'number' },
  { member: 'host', variable: 'HOST', kind: 'text' },
  { member: 'publicBaseUrl', variable: 'PUBLIC_BASE_URL', kind: 'text' },
  { member: 'shutdownTimeoutMs', variable: 'AUTHZ_SHUTDOWN_TIMEOUT_MS', kind: 'number' },
  { member: 'logLevel', variable: 'AUTHZ_LOG_LEVEL', kind: 'text' },
  { member: 'claimLeaseMs', variable: 'AUTHZ_CLAIM_LEASE_MS', kind: 'number' },
  { member: 'instance.registrationCertificateFiles', variable: 'AUTHZ_REGISTRATION_CERTS_FILE', kind: 'paths' },
  { member: 'signing.keyFile', variable: 'AUTHZ_SIGNING_KEY_FILE', kind: 'path' },
  { member: 'signing.certificateChainFile', variable: 'AUTHZ_SIGNING_CERT_CHAIN_FILE', kind: 'path' },
  { member: 'signing.trustAnchorFile', variable: 'AUTHZ_SIGNING_TRUST_ANCHOR_FILE', kind: 'path' },
  { member: 'signing.pkcs11.module', variable: 'AUTHZ_PKCS11_MODULE', kind: 'path' },
  { member: 'signing.pkcs11.tokenLabel', variable: 'AUTHZ_PKCS11_TOKEN_LABEL', kind: 'text' },
  { member: 'signing.pkcs11.keyLabel', variable: 'AUTHZ_PKCS11_KEY_LABEL', kind: 'text' },
  { member: 'signing.pkcs11.pinFile', variable: 'AUTHZ_PKCS11_PIN_FILE', kind: 'path' },
  { member: 'signing.awsKms.keyId', variable: 'AUTHZ_AWS_KMS_KEY_ID', kind: 'text' },
  { member: 'signing.awsKms.region', variable: 'AUTHZ_AWS_KMS_REGION', kind: 'text' },
  { member: 'signing.awsKms.endpoint', variable: 'AUTHZ_AWS_KMS_ENDPOINT', kind: 'text' },
  { member: 'readerAuth.identity', variable: 'AUTHZ_READER_AUTH', kind: 'text' },
  { member: 'readerAuth.keyFile', variable: 'AUTHZ_READER_AUTH_KEY_FILE', kind: 'path' },
  { member: 'readerAuth.certificateChainFile', variable: 'AUTHZ_READER_AUTH_CERT_CHAIN_FILE', kind: 'path' },
  { member: 'readerAuth.alg', variable: 'AUTHZ_READER_AUTH_ALG', kind: 'text' },
  { member: 'trust.issuerRootFiles', variable: 'ISSUER_ROOT_PEM_FILE', kind: 'paths' },
  { member: 'trust.issuerDids', variable: 'AUTHZ_TRUSTED_ISSUER_DIDS', kind: 'list' },
  { member: 'trust.trustLists.sources', variable: 'AUTHZ_TRUST_LISTS', kind: 'list' },
  { member: 'trust.trustLists.signerFiles', variable: 'AUTHZ_TRUST_LIST_SIGNERS', kind: 'paths' },
  { member: 'trust.trustLists.wait', variable: 'AUTHZ_TRUST_LISTS_WAIT', kind: 'flag' },
  { member: 'dataIntegrity.enabled', variable: 'DATA_INTEGRITY_ENABLED', kind: 'flag' },
  { member: 'dataIntegrity.cryptosuites', variable: 'DATA_INTEGRITY_CRYPTOSUITES', kind: 'list' },
  { member: 'dataIntegrity.contextFiles', variable: 'DATA_INTEGRITY_CONTEXTS_FILE', kind: 'paths' },
  { member: 'dataIntegrity.maxDepth', variable: 'DATA_INTEGRITY_MAX_DEPTH', kind: 'number' },
  { member: 'dataIntegrity.maxValues', variable: 'DATA_INTEGRITY_MAX_VALUES', kind: 'number' },
  { member: 'dataIntegrity.maxArrayLength', variable: 'DATA_INTEGRITY_MAX_ARRAY_LENGTH', kind: 'number' },
  { member: 'dataIntegrity.maxBlankNodes', variable: 'DATA_INTEGRITY_MAX_BLANK_NODES', kind: 'number' },
  { member: 'dataIntegrity.maxEmbeddedContexts', variable: 'DATA_INTEGRITY_MAX_EMBEDDED_CONTEXTS', kind: 'number' },
  { member: 'dataIntegrity.maxTermDefinitions', variable: 'DATA_INTEGRITY_MAX_TERM_DEFINITIONS', kind: 'number' },
  { member: 'dataIntegrity.canonicalizationTimeoutMs', variable: 'DATA_INTEGRITY_CANONICALIZATION_TIMEOUT_MS', kind: 'number' },
  { member: 'store.url', variable: 'REDIS_URL', kind: 'text' }, // when store.type is redis
  { member: 'store.url', variable: 'POSTGRES_URL', kind: 'text' }, // when store.type is postgres
  { member: 'store.migrate', variable: 'AUTHZ_POSTGRES_MIGRATE', kind: 'flag' },
  { member: 'store.maxRecordsPerInstance', variable: 'AUTHZ_MEMORY_STORE_MAX_RECORDS', kind: 'number' },
  { member: 'store.maxBytesPerInstance', variable: 'AUTHZ_MEMORY_STORE_MAX_BYTES', kind: 'number' },
];

/** Variables whose lists the file and the environment both contribute to (the environment's are added). */
export const MERGED_VARIABLES: readonly string[] = ['ISSUER_ROOT_PEM_FILE', 'AUTHZ_TRUSTED_ISSUER_DIDS'];
/** Variables that choose the store: set in the environment, they replace the file's `store` as a whole. */
const STORE_VARIABLES = ['REDIS_URL', 'POSTGRES_URL', 'AUTHZ_POSTGRES_MIGRATE', 'AUTHZ_MEMORY_STORE_MAX_RECORDS', 'AUTHZ_MEMORY_STORE_MAX_BYTES'];

/** A configuration file read and checked: its settings as variables (for the one loader), and what only it holds. */
export interface LoadedConfigFile {
  path: string;
  /** The file's settings, written as the variables they correspond to. */
  variables: Record<string, string>;
  instanceId?: string;
  apiKeys?: string[];
  /** The instance configuration as written (createAuthorizer fills in the defaults). */
  instanceConfig?: InstanceConfigInput;
}

/**
 * Where a JSON.parse SyntaxError happened, as "line L, column C" (1-based) from the offset in V8's
 * message when it has one; never the text around it.
 */
export function syntaxErrorPosition(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  const at = /\bposition (\d+)/.exec(message);
  // Node 20's "Unexpected token" message gives no position (only a quote of the text): none is reported.
  if (at === null) return /end of (JSON|data) input/i.test(message) ? 'it ends early' : 'an unexpected character; position not reported';
  const offset = Math.min(Number(at[1]), text.length);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

/**
 * Read and check a configuration file. A file that cannot be read, is not JSON, or has unknown or
 * invalid members throws ConfigError naming each member ("did you mean" for near misses).
 */
export function readConfigFile(path: string): LoadedConfigFile {
  const absolute = resolve(path);
  let text: string;
  try {
    text = readFileSync(absolute, 'utf8');
  } catch (error) {
    throw new ConfigError(`Cannot read the configuration file ${absolute} (${(error as { code?: string }).code ?? 'error'}): pass an existing JSON file with --config or AUTHZ_CONFIG_FILE.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    // V8's message quotes the text around the error, which may be a secret: only its position is reported.
    throw new ConfigError(`The configuration file ${absolute} is not valid JSON (${syntaxErrorPosition(text, error)}): fix it, or check it with a JSON validator.`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new ConfigError(`The configuration file ${absolute} must hold a JSON object.`);
  const file = parseConfig(configFileSchema, json, `configuration file ${absolute}`);
  const raw = json as { instance?: { config?: InstanceConfigInput } };
  const base = dirname(absolute);
  const variables: Record<string, string> = {};
  const problems: { path: string; message: string }[] = [];
  for (const { member, variable, kind } of FILE_SETTINGS) {
    if (member === 'store.url' && file.store?.type !== (variable === 'REDIS_URL' ? 'redis' : 'postgres')) continue;
    const value = member.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], file);
    if (value === undefined) continue;
    const onePath = (p: string) => (isAbsolute(p) ? p : resolve(base, p));
    if (kind === 'paths' || kind === 'list') {
      const entries = (value as string[]).map((entry) => (kind === 'paths' ? onePath(entry) : entry));
      // The loader reads comma-separated lists: an entry holding a comma cannot be passed on.
      if (entries.some((entry) => entry.includes(','))) problems.push({ path: member, message: 'entries must not contain a comma (rename the file)' });
      variables[variable] = entries.join(',');
    } else if (kind === 'path') variables[variable] = onePath(value as string);
    else variables[variable] = String(value);
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration file ${absolute}:`, problems);
  return {
    path: absolute,
    variables,
    ...(file.instance?.id !== undefined ? { instanceId: file.instance.id } : {}),
    ...(file.instance?.apiKeys !== undefined ? { apiKeys: file.instance.apiKeys } : {}),
    ...(raw.instance?.config !== undefined ? { instanceConfig: raw.instance.config } : {}),
  };
}

/**
 * The variables the loader reads: the file's, with the environment's over them. A variable set in
 * the environment replaces the file's member, except the issuer roots and DIDs (both are used);
 * a store variable set in the environment replaces the file's `store` as a whole.
 */
export function overlayEnvironment(fileVariables: Record<string, string>, env: Record<string, string | undefined>): { variables: Record<string, string | undefined>; fromFile: Set<string> } {
  const isSet = (name: string) => env[name] !== undefined && env[name]!.trim() !== '';
  const variables: Record<string, string | undefined> = { ...env };
  const fromFile = new Set<string>();
  const storeFromEnv = STORE_VARIABLES.some(isSet);
  for (const [name, value] of Object.entries(fileVariables)) {
    if (storeFromEnv && STORE_VARIABLES.includes(name)) continue;
    if (MERGED_VARIABLES.includes(name) && isSet(name)) {
      variables[name] = `${value},${env[name]}`;
    } else if (!isSet(name)) {
      variables[name] = value;
      fromFile.add(name);
    }
  }
  return { variables, fromFile };
}

/** The file member a variable came from, for messages. */
export function memberOf(variable: string): string | undefined {
  return FILE_SETTINGS.find((setting) => setting.variable === variable)?.member;
}
