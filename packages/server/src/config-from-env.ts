// The settings from environment variables that the standalone server and the example apps share:
// one loader, validated at start. Every problem names its variable; no message ever contains the
// API key, a PIN or a URL that may carry a password. The table of variables is
// docs/examples-configuration.md.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { corsConfigFromEnv, type CorsConfigInput } from '@vp-authorizer/core';
import { DATA_INTEGRITY_CRYPTOSUITES, DATA_INTEGRITY_LIMITS, type DataIntegrityCryptosuite, type DataIntegrityLimit } from '@vp-authorizer/local';

/** One problem of the settings: the variable (or configuration-file member) and what is wrong with it. */
export interface EnvProblem {
  variable: string;
  message: string;
}

/** The settings are refused: every problem at once, each naming its variable. */
export class EnvConfigError extends Error {
  readonly problems: EnvProblem[];

  constructor(problems: EnvProblem[], heading = 'Invalid environment') {
    super(`${heading}:\n${problems.map((p) => `  - ${p.variable}: ${p.message}`).join('\n')}`);
    this.name = 'EnvConfigError';
    this.problems = problems;
  }
}

/** The memory store's per-instance bounds (memoryStore({ maxRecordsPerInstance, maxBytesPerInstance })). */
export interface MemoryStoreQuotaSetting {
  maxRecordsPerInstance?: number;
  maxBytesPerInstance?: number;
}

/** openId4vp.dataRetention as set. */
export interface DataRetentionSetting {
  afterTerminal?: number;
  afterRead?: number;
  mode?: 'anonymize' | 'delete';
}

/** A request-signing key on a PKCS#11 token (@vp-authorizer/pkcs11). */
export interface Pkcs11Setting {
  module: string;
  tokenLabel: string;
  keyLabel: string;
  pin: string;
  certificateChain: string[];
  trustAnchor?: string;
}

/** A request-signing key in AWS KMS (@vp-authorizer/kms-aws); credentials come from the AWS SDK's default chain. */
export interface AwsKmsSetting {
  keyId: string;
  region: string;
  endpoint?: string;
  certificateChain: string[];
  trustAnchor?: string;
}

/** A request-signing key held in this process: a PEM private key and its chain (leaf first, without the root). */
export interface SigningKeySetting {
  privateKey: string;
  certificateChain: string[];
  trustAnchor?: string;
}

/** What the environment sets; unset members are undefined (the embedded defaults apply). */
export interface EnvConfig {
  port: number;
  host: string;
  publicBaseUrl?: string;
  redirectUri?: string;
  /** AUTHZ_ALLOWED_REDIRECT_URIS: the instance's openId4vp.allowedRedirectUris. */
  allowedRedirectUris?: string[];
  /** AUTHZ_DC_API_ALLOWED_ORIGINS: the instance's openId4vp.dcApi.allowedOrigins ("none": []). */
  dcApiAllowedOrigins?: string[];
  /** AUTHZ_RETENTION_AFTER_TERMINAL / _AFTER_READ (ms) / _MODE: the instance's openId4vp.dataRetention; undefined when none is set. */
  dataRetention?: DataRetentionSetting;
  apiKey?: string;
  issuerRoots: string[];
  /** AUTHZ_TRUSTED_ISSUER_DIDS: DIDs and did:web domains added to the validator's trustedIssuers. */
  issuerDids: string[];
  /** AUTHZ_TRUST_LISTS, AUTHZ_TRUST_LIST_SIGNERS (PEM texts), AUTHZ_TRUST_LISTS_WAIT. */
  trustLists?: { sources: string[]; signers: string[]; wait: boolean };
  redisUrl?: string;
  /** POSTGRES_URL: the Postgres store. */
  postgresUrl?: string;
  /** AUTHZ_POSTGRES_MIGRATE: apply the Postgres store's migrations at start. */
  postgresMigrate?: boolean;
  /** AUTHZ_MEMORY_STORE_MAX_RECORDS / AUTHZ_MEMORY_STORE_MAX_BYTES; undefined when neither is set. */
  memoryStoreQuota?: MemoryStoreQuotaSetting;
  /** AUTHZ_CLAIM_LEASE_MS: createAuthorizer's `claimLeaseMs`. */
  claimLeaseMs?: number;
  cors: CorsConfigInput;
  /** `localVerifier({ dataIntegrity })` from DATA_INTEGRITY_ENABLED, _CRYPTOSUITES, _CONTEXTS_FILE and the limits (DATA_INTEGRITY_MAX_DEPTH, …). */
  dataIntegrity: { enabled?: boolean; cryptosuites?: DataIntegrityCryptosuite[]; contexts?: Record<string, Record<string, unknown>> } & { [limit in DataIntegrityLimit]?: number };
  /** AUTHZ_PKCS11_MODULE, _TOKEN_LABEL, _KEY_LABEL, _PIN(_FILE), AUTHZ_SIGNING_CERT_CHAIN_FILE, AUTHZ_SIGNING_TRUST_ANCHOR_FILE. */
  pkcs11?: Pkcs11Setting;
  /** AUTHZ_AWS_KMS_KEY_ID, _REGION, _ENDPOINT, AUTHZ_SIGNING_CERT_CHAIN_FILE, AUTHZ_SIGNING_TRUST_ANCHOR_FILE. */
  awsKms?: AwsKmsSetting;
  /** AUTHZ_SIGNING_KEY_FILE with AUTHZ_SIGNING_CERT_CHAIN_FILE (and AUTHZ_SIGNING_TRUST_ANCHOR_FILE). */
  signingKey?: SigningKeySetting;
  /** AUTHZ_REGISTRATION_CERTS_FILE: the JWTs. */
  registrationCertificates?: string[];
  /** AUTHZ_READER_AUTH=signing, or AUTHZ_READER_AUTH_KEY_FILE + _CERT_CHAIN_FILE (PEM texts); AUTHZ_READER_AUTH_ALG: the instance's readerAuth. */
  readerAuth?: { identity: 'signing' | { privateKey: string; certificateChain: string[] }; alg?: 'ES256' | 'ESP256' };
  /** AUTHZ_SHUTDOWN_TIMEOUT_MS (standalone server): how long a shutdown waits for requests in flight. */
  shutdownTimeoutMs?: number;
  /** AUTHZ_LOG_LEVEL (standalone server): the lowest level written. */
  logLevel?: LogLevel;
}

/** Log levels, lowest first. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Each numeric `dataIntegrity` option of localVerifier and the variable that sets it. */
const DATA_INTEGRITY_LIMIT_VARIABLES: readonly (readonly [string, DataIntegrityLimit])[] = [
  ['DATA_INTEGRITY_MAX_DEPTH', 'maxDepth'],
  ['DATA_INTEGRITY_MAX_VALUES', 'maxValues'],
  ['DATA_INTEGRITY_MAX_ARRAY_LENGTH', 'maxArrayLength'],
  ['DATA_INTEGRITY_MAX_BLANK_NODES', 'maxBlankNodes'],
  ['DATA_INTEGRITY_MAX_EMBEDDED_CONTEXTS', 'maxEmbeddedContexts'],
  ['DATA_INTEGRITY_MAX_TERM_DEFINITIONS', 'maxTermDefinitions'],
  ['DATA_INTEGRITY_CANONICALIZATION_TIMEOUT_MS', 'canonicalizationTimeoutMs'],
];

/**
 * A refused value as a message may quote it: a short word as written, anything else by its length
 * only. Beside AUTHZ_READER_AUTH_KEY_FILE, a reader key pasted into AUTHZ_READER_AUTH (or _ALG) must
 * not reach the start-up error and the logs.
 */
const shownValue = (text: string): string => (text.length <= 40 && /^[\x21-\x7e]*$/.test(text) && !text.includes('-----') ? `"${text}"` : `a value of ${text.length} characters (not shown)`);

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * Read and check the variables. Unset ones keep the embedded defaults (memory store, generated
 * API key and dev keys, no redirect URI, CORS off). Throws EnvConfigError naming every bad variable.
 */
export function configFromEnv(env: Record<string, string | undefined>, { defaultPort }: { defaultPort: number }): EnvConfig {
  const problems: EnvProblem[] = [];
  const value = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v === undefined || v === '' ? undefined : v;
  };

  let port = defaultPort;
  const portText = value('PORT');
  if (portText !== undefined) {
    port = Number(portText);
    if (!/^\d+$/.test(portText) || port > 65535) problems.push({ variable: 'PORT', message: `must be a port number 0–65535, got "${portText}"` });
  }
  const host = value('HOST') ?? '127.0.0.1';

  const url = (name: string, { base }: { base: boolean }): string | undefined => {
    const text = value(name);
    if (text === undefined) return undefined;
    let parsed: URL;
    try {
      parsed = new URL(text);
    } catch {
      problems.push({ variable: name, message: `must be an absolute http(s) URL, got "${text}"` });
      return undefined;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') problems.push({ variable: name, message: `must be an http(s) URL, got "${text}"` });
    else if (parsed.hash) problems.push({ variable: name, message: 'must not have a #fragment' });
    else if (base && parsed.search) problems.push({ variable: name, message: 'must not have a ?query (it is the base of every authorizer URL)' });
    return base ? text.replace(/\/+$/, '') : text;
  };
  const publicBaseUrl = url('PUBLIC_BASE_URL', { base: true });
  const redirectUri = url('AUTHZ_REDIRECT_URI', { base: false });

  // The key itself never appears in a message: only its length and what is wrong with it.
  const apiKey = env.AUTHZ_API_KEY === undefined || env.AUTHZ_API_KEY === '' ? undefined : env.AUTHZ_API_KEY;
  if (apiKey !== undefined) {
    if (apiKey.length < 8) problems.push({ variable: 'AUTHZ_API_KEY', message: `must be at least 8 characters (it has ${apiKey.length})` });
    else if (/\s/.test(apiKey)) problems.push({ variable: 'AUTHZ_API_KEY', message: 'must not contain white space (it is sent as a bearer token)' });
  }

  const issuerRoots: string[] = [];
  const addPem = (variable: string, text: string, where: string) => {
    const blocks = text.match(PEM_BLOCK) ?? [];
    if (blocks.length === 0) return void problems.push({ variable, message: `${where} holds no PEM certificate (-----BEGIN CERTIFICATE-----)` });
    for (const [index, block] of blocks.entries()) {
      try {
        new X509Certificate(block);
        issuerRoots.push(block);
      } catch {
        problems.push({ variable, message: `${where}: certificate ${index + 1} is not a valid X.509 certificate` });
      }
    }
  };
  const inlinePem = value('ISSUER_ROOT_PEM');
  if (inlinePem !== undefined) addPem('ISSUER_ROOT_PEM', inlinePem.replace(/\\n/g, '\n'), 'the value');
  for (const path of (value('ISSUER_ROOT_PEM_FILE') ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      problems.push({ variable: 'ISSUER_ROOT_PEM_FILE', message: `cannot read "${path}" (${errorCode(error)})` });
      continue;
    }
    addPem('ISSUER_ROOT_PEM_FILE', text, `"${path}"`);
  }

  // Trusted issuers by DID, beside the roots: exact DIDs, or did:web:<domain> for the domain and its paths.
  const issuerDids: string[] = [];
  for (const did of (value('AUTHZ_TRUSTED_ISSUER_DIDS') ?? '').split(',').map((d) => d.trim()).filter(Boolean)) {
    if (/^did:[a-z0-9]+:[^#?/\s]+$/.test(did)) issuerDids.push(did);
    else problems.push({ variable: 'AUTHZ_TRUSTED_ISSUER_DIDS', message: `"${did.slice(0, 80)}" is not a DID (did:<method>:<id>, without a path, query or fragment)` });
  }

  // Comma-separated lists; the rules mirror the core's, so that a bad entry stops the start here
  // (naming its variable) rather than when the authorizer is built.
  const list = (name: string) => value(name)?.split(',').map((entry) => entry.trim()).filter(Boolean);
  const origin = (text: string) => {
    try {
      const parsed = new URL(text);
      return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
    } catch {
      return undefined;
    }
  };
  const dcApiText = value('AUTHZ_DC_API_ALLOWED_ORIGINS');
  const dcApiAllowedOrigins = dcApiText?.toLowerCase() === 'none' ? [] : list('AUTHZ_DC_API_ALLOWED_ORIGINS');
  for (const entry of dcApiAllowedOrigins ?? []) {
    if (/^android:apk-key-hash:[A-Za-z0-9_-]+={0,2}$/.test(entry) || origin(entry) === entry) continue;
    problems.push({ variable: 'AUTHZ_DC_API_ALLOWED_ORIGINS', message: `"${entry}" is not an origin such as https://rp.example (as browsers write it: no path, no trailing slash) or android:apk-key-hash:…` });
  }
  const allowedRedirectUris = list('AUTHZ_ALLOWED_REDIRECT_URIS');
  for (const entry of allowedRedirectUris ?? []) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(entry);
    } catch {}
    // Neither this message nor another quotes an entry with credentials.
    if (parsed?.username || parsed?.password) problems.push({ variable: 'AUTHZ_ALLOWED_REDIRECT_URIS', message: 'an entry carries credentials (user:password@); redirect URIs never may' });
    else if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) problems.push({ variable: 'AUTHZ_ALLOWED_REDIRECT_URIS', message: `"${entry}" is not an absolute http(s) URI or origin` });
    else if (parsed.hash) problems.push({ variable: 'AUTHZ_ALLOWED_REDIRECT_URIS', message: `"${entry}" must not have a #fragment` });
    else if (!/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*\//i.test(entry) && origin(entry) !== entry) {
      problems.push({ variable: 'AUTHZ_ALLOWED_REDIRECT_URIS', message: `"${entry}" is written as an origin but is not one as browsers write it: use "${parsed.origin}", or a full URI with a path` });
    }
  }
  if (redirectUri !== undefined && allowedRedirectUris !== undefined && !redirectAllowed(redirectUri, allowedRedirectUris)) {
    problems.push({ variable: 'AUTHZ_REDIRECT_URI', message: 'is neither listed in AUTHZ_ALLOWED_REDIRECT_URIS nor on an origin listed there' });
  }
  // Trusted lists (TS 119 612 / LoTL, TS 119 602 LoTE, VICAL): sources and the certificates
  // accepted as their signers. Each list's own signature is checked when it loads.
  const trustListSources = (value('AUTHZ_TRUST_LISTS') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const source of trustListSources) {
    const kind = /^([a-z]+):(?!\/\/)/.exec(source)?.[1];
    if (kind !== undefined && !['lotl', 'tl', 'lote', 'vical'].includes(kind)) problems.push({ variable: 'AUTHZ_TRUST_LISTS', message: `"${source}": the kind prefix must be lotl:, tl:, lote: or vical:` });
    else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source.replace(/^[a-z]+:(?!\/\/)/, '')) && !source.replace(/^[a-z]+:(?!\/\/)/, '').startsWith('https://')) problems.push({ variable: 'AUTHZ_TRUST_LISTS', message: `"${source}": lists are fetched over https only (or read from a file path)` });
  }
  const trustListSigners: string[] = [];
  for (const path of (value('AUTHZ_TRUST_LIST_SIGNERS') ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      problems.push({ variable: 'AUTHZ_TRUST_LIST_SIGNERS', message: `cannot read "${path}" (${errorCode(error)})` });
      continue;
    }
    const blocks = text.match(PEM_BLOCK) ?? [];
    if (blocks.length === 0) problems.push({ variable: 'AUTHZ_TRUST_LIST_SIGNERS', message: `"${path}" holds no PEM certificate (-----BEGIN CERTIFICATE-----)` });
    trustListSigners.push(...blocks);
  }
  if (trustListSources.length > 0 && trustListSigners.length === 0 && !problems.some((p) => p.variable === 'AUTHZ_TRUST_LIST_SIGNERS')) {
    problems.push({ variable: 'AUTHZ_TRUST_LIST_SIGNERS', message: 'is required with AUTHZ_TRUST_LISTS: a PEM file of the certificates that sign the lists (the LoTL signers the Official Journal publishes, a VICAL signer root)' });
  }
  const waitText = value('AUTHZ_TRUST_LISTS_WAIT');
  if (waitText !== undefined && !['true', 'false', '1', '0'].includes(waitText)) problems.push({ variable: 'AUTHZ_TRUST_LISTS_WAIT', message: 'must be true, false, 1 or 0' });
  const trustLists = trustListSources.length > 0 ? { sources: trustListSources, signers: trustListSigners, wait: waitText === 'true' || waitText === '1' } : undefined;

  const redisUrl = value('REDIS_URL');
  if (redisUrl !== undefined && !/^rediss?:\/\/[^\s]+$/.test(redisUrl)) {
    // Not quoted: the URL may carry a password.
    problems.push({ variable: 'REDIS_URL', message: 'must be a redis:// or rediss:// URL' });
  }
  const postgresUrl = value('POSTGRES_URL');
  if (postgresUrl !== undefined && !/^postgres(ql)?:\/\/[^\s]+$/.test(postgresUrl)) {
    // Not quoted: the URL may carry a password.
    problems.push({ variable: 'POSTGRES_URL', message: 'must be a postgres:// or postgresql:// URL' });
  } else if (postgresUrl !== undefined && redisUrl !== undefined) {
    problems.push({ variable: 'POSTGRES_URL', message: 'selects the Postgres store, and REDIS_URL the Redis store: set one of them' });
  }

  // The memory store's per-instance quota (memoryStore({ maxRecordsPerInstance, maxBytesPerInstance })).
  const wholeNumber = (name: string): number | undefined => {
    const text = value(name);
    if (text === undefined) return undefined;
    const number = Number(text);
    if (!/^\d+$/.test(text) || number < 1 || !Number.isSafeInteger(number)) problems.push({ variable: name, message: `must be a whole number ≥ 1, got "${text}"` });
    return number;
  };
  const maxRecordsPerInstance = wholeNumber('AUTHZ_MEMORY_STORE_MAX_RECORDS');
  const maxBytesPerInstance = wholeNumber('AUTHZ_MEMORY_STORE_MAX_BYTES');
  const memoryStoreQuota =
    maxRecordsPerInstance === undefined && maxBytesPerInstance === undefined
      ? undefined
      : { ...(maxRecordsPerInstance !== undefined ? { maxRecordsPerInstance } : {}), ...(maxBytesPerInstance !== undefined ? { maxBytesPerInstance } : {}) };
  if (memoryStoreQuota && redisUrl !== undefined) {
    for (const variable of ['AUTHZ_MEMORY_STORE_MAX_RECORDS', 'AUTHZ_MEMORY_STORE_MAX_BYTES'].filter((name) => value(name) !== undefined)) {
      problems.push({ variable, message: 'bounds the memory store, and REDIS_URL selects the Redis store: unset one of them' });
    }
  }
  if (memoryStoreQuota && postgresUrl !== undefined) {
    for (const variable of ['AUTHZ_MEMORY_STORE_MAX_RECORDS', 'AUTHZ_MEMORY_STORE_MAX_BYTES'].filter((name) => value(name) !== undefined)) {
      problems.push({ variable, message: 'bounds the memory store, and POSTGRES_URL selects the Postgres store: unset one of them' });
    }
  }

  // Retention of what wallets disclosed (openId4vp.dataRetention), in milliseconds. The examples keep
  // the library's responseCodeTtl (5 min) and retention (24 h), which bound the windows.
  const milliseconds = (name: string, min: number): number | undefined => {
    const text = value(name);
    if (text === undefined) return undefined;
    const number = Number(text);
    if (!/^\d+$/.test(text) || number < min || number > 86_400_000) problems.push({ variable: name, message: `must be a whole number of milliseconds from ${min} to 86400000 (24 h, the retention), got "${text}"` });
    return number;
  };
  const afterTerminal = milliseconds('AUTHZ_RETENTION_AFTER_TERMINAL', 300_000);
  const afterRead = milliseconds('AUTHZ_RETENTION_AFTER_READ', 0);
  const mode = value('AUTHZ_RETENTION_MODE');
  if (mode !== undefined && mode !== 'anonymize' && mode !== 'delete') problems.push({ variable: 'AUTHZ_RETENTION_MODE', message: `must be anonymize or delete, got "${mode}"` });
  const dataRetention: DataRetentionSetting | undefined =
    afterTerminal === undefined && afterRead === undefined && mode === undefined
      ? undefined
      : { ...(afterTerminal !== undefined ? { afterTerminal } : {}), ...(afterRead !== undefined ? { afterRead } : {}), ...(mode !== undefined ? { mode: mode as DataRetentionSetting['mode'] } : {}) };

  // How long a claim on a wallet response holds without renewal (createAuthorizer({ claimLeaseMs })).
  const claimLeaseMs = wholeNumber('AUTHZ_CLAIM_LEASE_MS');
  if (claimLeaseMs !== undefined && (claimLeaseMs < 100 || claimLeaseMs > 60_000)) problems.push({ variable: 'AUTHZ_CLAIM_LEASE_MS', message: `must be 100–60000 (ms), got "${claimLeaseMs}"` });

  let cors: Exclude<CorsConfigInput, undefined> = { enabled: false };
  try {
    cors = corsConfigFromEnv(env) as Exclude<CorsConfigInput, undefined>;
  } catch {
    problems.push({ variable: 'EXPRESS_CORS_ENABLED', message: 'must be true, false, 1 or 0' });
  }
  if (cors.origin) {
    for (const origin of cors.origin) {
      if (origin === '*') continue;
      let ok = false;
      try {
        ok = ['http:', 'https:'].includes(new URL(origin).protocol);
      } catch {}
      if (!ok) problems.push({ variable: 'EXPRESS_CORS_ORIGIN', message: `"${origin}" is not an http(s) origin or *` });
    }
  }

  // W3C Data Integrity (ldp_vc / ldp_vp) in localVerifier: on/off, accepted suites, extra contexts.
  const dataIntegrity: EnvConfig['dataIntegrity'] = {};
  const enabled = value('DATA_INTEGRITY_ENABLED');
  if (enabled !== undefined) {
    if (!/^(true|false|1|0)$/.test(enabled)) problems.push({ variable: 'DATA_INTEGRITY_ENABLED', message: `must be true, false, 1 or 0, got "${enabled}"` });
    else dataIntegrity.enabled = enabled === 'true' || enabled === '1';
  }
  const suites = value('DATA_INTEGRITY_CRYPTOSUITES');
  if (suites !== undefined) {
    const list = suites.split(',').map((s) => s.trim()).filter(Boolean);
    const unknown = list.filter((s) => !(DATA_INTEGRITY_CRYPTOSUITES as readonly string[]).includes(s));
    if (list.length === 0 || unknown.length > 0) problems.push({ variable: 'DATA_INTEGRITY_CRYPTOSUITES', message: `must list some of ${DATA_INTEGRITY_CRYPTOSUITES.join(', ')}${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}` });
    else dataIntegrity.cryptosuites = list as DataIntegrityCryptosuite[];
  }
  for (const path of (value('DATA_INTEGRITY_CONTEXTS_FILE') ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    let contexts: unknown;
    try {
      contexts = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      problems.push({ variable: 'DATA_INTEGRITY_CONTEXTS_FILE', message: `cannot read "${path}" as JSON (${(error as { code?: string }).code ?? 'invalid JSON'})` });
      continue;
    }
    if (typeof contexts !== 'object' || contexts === null || Array.isArray(contexts)) {
      problems.push({ variable: 'DATA_INTEGRITY_CONTEXTS_FILE', message: `"${path}" must hold an object of context documents by URL` });
      continue;
    }
    dataIntegrity.contexts = { ...dataIntegrity.contexts, ...(contexts as Record<string, Record<string, unknown>>) };
  }
  // The document limits and the canonicalization deadline, in the ranges localVerifier accepts.
  for (const [variable, option] of DATA_INTEGRITY_LIMIT_VARIABLES) {
    const text = value(variable);
    if (text === undefined) continue;
    const { max, default: fallback } = DATA_INTEGRITY_LIMITS[option];
    const number = Number(text);
    if (!/^\d+$/.test(text) || number < 1 || number > max) problems.push({ variable, message: `must be a whole number from 1 to ${max} (dataIntegrity.${option}; default ${fallback}), got "${text.slice(0, 40)}"` });
    else dataIntegrity[option] = number;
  }

  // The request-signing key on a PKCS#11 token (@vp-authorizer/pkcs11). The PIN never appears in a message.
  let pkcs11: Pkcs11Setting | undefined;
  const pkcs11Module = value('AUTHZ_PKCS11_MODULE');
  const readText = (variable: string, path: string): string | undefined => {
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      problems.push({ variable, message: `cannot read ${path} (${errorCode(error)})` });
      return undefined;
    }
  };
  // The certificate chain (and trust anchor) of a key held outside the variables: on a token, in KMS, in a file.
  const signingChain = (requiredWith: string): { certificateChain: string[]; trustAnchor?: string } => {
    const chainFile = value('AUTHZ_SIGNING_CERT_CHAIN_FILE');
    if (chainFile === undefined) problems.push({ variable: 'AUTHZ_SIGNING_CERT_CHAIN_FILE', message: `is required with ${requiredWith} (the key's certificate, leaf first, without the root)` });
    const chainText = chainFile !== undefined ? readText('AUTHZ_SIGNING_CERT_CHAIN_FILE', chainFile) : undefined;
    const certificateChain = chainText?.match(PEM_BLOCK) ?? [];
    if (chainText !== undefined && certificateChain.length === 0) problems.push({ variable: 'AUTHZ_SIGNING_CERT_CHAIN_FILE', message: `${chainFile} holds no PEM certificate` });
    const anchorFile = value('AUTHZ_SIGNING_TRUST_ANCHOR_FILE');
    const trustAnchor = anchorFile !== undefined ? readText('AUTHZ_SIGNING_TRUST_ANCHOR_FILE', anchorFile) : undefined;
    return { certificateChain, ...(trustAnchor ? { trustAnchor } : {}) };
  };
  if (pkcs11Module !== undefined) {
    const tokenLabel = value('AUTHZ_PKCS11_TOKEN_LABEL');
    const keyLabel = value('AUTHZ_PKCS11_KEY_LABEL');
    const pinFile = value('AUTHZ_PKCS11_PIN_FILE');
    const pin = pinFile !== undefined ? readText('AUTHZ_PKCS11_PIN_FILE', pinFile)?.trim() : env.AUTHZ_PKCS11_PIN;
    if (tokenLabel === undefined) problems.push({ variable: 'AUTHZ_PKCS11_TOKEN_LABEL', message: 'is required with AUTHZ_PKCS11_MODULE (the token\'s label)' });
    if (keyLabel === undefined) problems.push({ variable: 'AUTHZ_PKCS11_KEY_LABEL', message: 'is required with AUTHZ_PKCS11_MODULE (the private key\'s CKA_LABEL)' });
    if (!pin) problems.push({ variable: 'AUTHZ_PKCS11_PIN', message: 'or AUTHZ_PKCS11_PIN_FILE is required with AUTHZ_PKCS11_MODULE (the token\'s user PIN)' });
    const { certificateChain, trustAnchor } = signingChain('AUTHZ_PKCS11_MODULE');
    pkcs11 = { module: pkcs11Module, tokenLabel: tokenLabel ?? '', keyLabel: keyLabel ?? '', pin: pin ?? '', certificateChain, ...(trustAnchor ? { trustAnchor } : {}) };
  }

  // A request-signing key held in this process, from a PEM file (the key never appears in a message).
  let signingKey: SigningKeySetting | undefined;
  const keyFile = value('AUTHZ_SIGNING_KEY_FILE');
  if (keyFile !== undefined && pkcs11Module !== undefined) {
    problems.push({ variable: 'AUTHZ_SIGNING_KEY_FILE', message: 'names a key file, and AUTHZ_PKCS11_MODULE a key on a token: set one of them' });
  } else if (keyFile !== undefined) {
    const keyText = readText('AUTHZ_SIGNING_KEY_FILE', keyFile);
    if (keyText !== undefined) {
      let curve: string | undefined;
      try {
        curve = createPrivateKey(keyText).asymmetricKeyDetails?.namedCurve;
      } catch {
        problems.push({ variable: 'AUTHZ_SIGNING_KEY_FILE', message: `${keyFile} holds no PEM private key (PKCS#8 or SEC1)` });
        curve = 'unreadable';
      }
      if (curve !== 'unreadable' && curve !== 'prime256v1') problems.push({ variable: 'AUTHZ_SIGNING_KEY_FILE', message: `${keyFile} must hold a P-256 key (ES256), it holds ${curve ?? 'another kind of key'}` });
    }
    const chain = signingChain('AUTHZ_SIGNING_KEY_FILE');
    if (keyText !== undefined) signingKey = { privateKey: keyText, ...chain };
  }

  // A request-signing key in AWS KMS (@vp-authorizer/kms-aws): one signing key source at a time.
  let awsKms: AwsKmsSetting | undefined;
  const kmsKeyId = value('AUTHZ_AWS_KMS_KEY_ID');
  const kmsRegion = value('AUTHZ_AWS_KMS_REGION');
  const kmsEndpoint = value('AUTHZ_AWS_KMS_ENDPOINT');
  if (kmsKeyId === undefined) {
    for (const variable of ['AUTHZ_AWS_KMS_REGION', 'AUTHZ_AWS_KMS_ENDPOINT']) {
      if (value(variable) !== undefined) problems.push({ variable, message: 'needs AUTHZ_AWS_KMS_KEY_ID (the KMS key that signs)' });
    }
  } else if (pkcs11Module !== undefined || keyFile !== undefined) {
    const other = pkcs11Module !== undefined ? 'AUTHZ_PKCS11_MODULE a key on a token' : 'AUTHZ_SIGNING_KEY_FILE a key file';
    problems.push({ variable: 'AUTHZ_AWS_KMS_KEY_ID', message: `names a key in AWS KMS, and ${other}: set one of them (unset the other)` });
  } else {
    if (kmsRegion === undefined) problems.push({ variable: 'AUTHZ_AWS_KMS_REGION', message: 'is required with AUTHZ_AWS_KMS_KEY_ID (the key\'s AWS region, such as eu-central-1)' });
    if (kmsEndpoint !== undefined && !/^https?:\/\/[^\s]+$/.test(kmsEndpoint)) problems.push({ variable: 'AUTHZ_AWS_KMS_ENDPOINT', message: 'must be an http(s) URL (a KMS-compatible endpoint)' });
    const chain = signingChain('AUTHZ_AWS_KMS_KEY_ID');
    awsKms = { keyId: kmsKeyId, region: kmsRegion ?? '', ...(kmsEndpoint ? { endpoint: kmsEndpoint } : {}), ...chain };
  }

  // Whether the Postgres store's migrations are applied at start (the standalone server; the examples always do).
  const migrateText = value('AUTHZ_POSTGRES_MIGRATE');
  if (migrateText !== undefined && !['true', 'false', '1', '0'].includes(migrateText)) problems.push({ variable: 'AUTHZ_POSTGRES_MIGRATE', message: `must be true, false, 1 or 0, got "${migrateText}"` });
  else if (migrateText !== undefined && postgresUrl === undefined) problems.push({ variable: 'AUTHZ_POSTGRES_MIGRATE', message: 'applies the Postgres store\'s migrations: set POSTGRES_URL too' });
  const postgresMigrate = migrateText === undefined ? undefined : migrateText === 'true' || migrateText === '1';

  // Registration certificates (ETSI TS 119 475 JWTs), one or more per file, separated by white space.
  let registrationCertificates: string[] | undefined;
  const registrationFiles = value('AUTHZ_REGISTRATION_CERTS_FILE');
  if (registrationFiles !== undefined) {
    registrationCertificates = registrationFiles
      .split(',')
      .map((path) => path.trim())
      .filter(Boolean)
      .flatMap((path) => (readText('AUTHZ_REGISTRATION_CERTS_FILE', path) ?? '').split(/\s+/).filter(Boolean));
    if (registrationCertificates.length === 0) problems.push({ variable: 'AUTHZ_REGISTRATION_CERTS_FILE', message: 'the files hold no JWT' });
  }

  // readerAuth of org-iso-mdoc requests: the request-signing identity, or a dedicated reader key and certificate.
  let readerAuth: EnvConfig['readerAuth'];
  const readerAuthMode = value('AUTHZ_READER_AUTH');
  const readerKeyFile = value('AUTHZ_READER_AUTH_KEY_FILE');
  const readerChainFile = value('AUTHZ_READER_AUTH_CERT_CHAIN_FILE');
  const readerAlg = value('AUTHZ_READER_AUTH_ALG');
  if (readerAuthMode !== undefined && readerAuthMode !== 'signing') {
    problems.push({ variable: 'AUTHZ_READER_AUTH', message: `must be "signing" (sign readerAuth with the request-signing key), got ${shownValue(readerAuthMode)}; for a dedicated reader key set AUTHZ_READER_AUTH_KEY_FILE and AUTHZ_READER_AUTH_CERT_CHAIN_FILE instead` });
  }
  if (readerAlg !== undefined && readerAlg !== 'ES256' && readerAlg !== 'ESP256') problems.push({ variable: 'AUTHZ_READER_AUTH_ALG', message: `must be ES256 or ESP256, got ${shownValue(readerAlg)}` });
  if ((readerKeyFile === undefined) !== (readerChainFile === undefined)) {
    problems.push({ variable: readerKeyFile === undefined ? 'AUTHZ_READER_AUTH_KEY_FILE' : 'AUTHZ_READER_AUTH_CERT_CHAIN_FILE', message: 'is required with the other AUTHZ_READER_AUTH_*_FILE variable (a reader key and its certificate chain)' });
  } else if (readerKeyFile !== undefined && readerAuthMode !== undefined) {
    problems.push({ variable: 'AUTHZ_READER_AUTH', message: 'cannot be set with AUTHZ_READER_AUTH_KEY_FILE: readerAuth signs with one identity' });
  }
  if (readerKeyFile !== undefined && readerChainFile !== undefined) {
    const privateKey = readText('AUTHZ_READER_AUTH_KEY_FILE', readerKeyFile);
    const chainText = readText('AUTHZ_READER_AUTH_CERT_CHAIN_FILE', readerChainFile);
    const certificateChain = chainText?.match(PEM_BLOCK) ?? [];
    if (chainText !== undefined && certificateChain.length === 0) problems.push({ variable: 'AUTHZ_READER_AUTH_CERT_CHAIN_FILE', message: `${readerChainFile} holds no PEM certificate` });
    if (privateKey !== undefined) readerAuth = { identity: { privateKey, certificateChain } };
  } else if (readerAuthMode === 'signing') readerAuth = { identity: 'signing' };
  if (readerAuth && (readerAlg === 'ES256' || readerAlg === 'ESP256')) readerAuth.alg = readerAlg;
  if (readerAlg !== undefined && readerKeyFile === undefined && readerChainFile === undefined && readerAuthMode === undefined) {
    problems.push({ variable: 'AUTHZ_READER_AUTH_ALG', message: 'needs AUTHZ_READER_AUTH=signing or AUTHZ_READER_AUTH_KEY_FILE (there is no readerAuth to sign)' });
  }

  // The standalone server's own: how long a shutdown waits for requests in flight, and its log level.
  const shutdownText = value('AUTHZ_SHUTDOWN_TIMEOUT_MS');
  let shutdownTimeoutMs: number | undefined;
  if (shutdownText !== undefined) {
    shutdownTimeoutMs = Number(shutdownText);
    if (!/^\d+$/.test(shutdownText) || shutdownTimeoutMs > 600_000) problems.push({ variable: 'AUTHZ_SHUTDOWN_TIMEOUT_MS', message: `must be a whole number of milliseconds from 0 to 600000, got "${shutdownText}"` });
  }
  const logLevel = value('AUTHZ_LOG_LEVEL');
  if (logLevel !== undefined && !(LOG_LEVELS as readonly string[]).includes(logLevel)) problems.push({ variable: 'AUTHZ_LOG_LEVEL', message: `must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"` });

  if (problems.length > 0) throw new EnvConfigError(problems);
  return { port, host, publicBaseUrl, redirectUri, allowedRedirectUris, dcApiAllowedOrigins, dataRetention, apiKey, issuerRoots, issuerDids, redisUrl, postgresUrl, trustLists, memoryStoreQuota, claimLeaseMs, cors, dataIntegrity, pkcs11, awsKms, signingKey, postgresMigrate, registrationCertificates, readerAuth, shutdownTimeoutMs, logLevel: logLevel as LogLevel | undefined };
}

/** As the core decides it: an exact entry, or a URI on an entry that is an origin. */
export function redirectAllowed(uri: string, allowList: readonly string[]): boolean {
  if (allowList.includes(uri)) return true;
  try {
    return allowList.includes(new URL(uri).origin);
  } catch {
    return false;
  }
}


/** A file-system error's code, never its message (which repeats the path and says no more). */
function errorCode(error: unknown): string {
  return (error as { code?: string } | undefined)?.code ?? 'error';
}
