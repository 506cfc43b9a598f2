// The example apps' and the demo's configuration from environment variables: one loader, validated
// at start. Every problem names its variable; no message ever contains the API key.
// The table of variables is docs/examples-configuration.md.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { corsConfigFromEnv, createAuthorizer, memoryStore } from '@vp-authorizer/core';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { DATA_INTEGRITY_CRYPTOSUITES, localValidator, localVerifier } from '@vp-authorizer/local';

export class EnvConfigError extends Error {
  /** @param {{ variable: string; message: string }[]} problems */
  constructor(problems) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p.variable}: ${p.message}`).join('\n')}`);
    this.name = 'EnvConfigError';
    this.problems = problems;
  }
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * Read and check the variables. Unset ones keep the embedded defaults (memory store, generated
 * API key and dev keys, no redirect URI, CORS off).
 * @param {Record<string, string | undefined>} env
 * @param {{ defaultPort: number }} options
 */
export function configFromEnv(env, { defaultPort }) {
  const problems = [];
  const value = (name) => {
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

  const url = (name, { base }) => {
    const text = value(name);
    if (text === undefined) return undefined;
    let parsed;
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

  const issuerRoots = [];
  const addPem = (variable, text, where) => {
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
    let text;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      problems.push({ variable: 'ISSUER_ROOT_PEM_FILE', message: `cannot read "${path}" (${error?.code ?? 'error'})` });
      continue;
    }
    addPem('ISSUER_ROOT_PEM_FILE', text, `"${path}"`);
  }

  // Trusted issuers by DID, beside the roots: exact DIDs, or did:web:<domain> for the domain and its paths.
  const issuerDids = [];
  for (const did of (value('AUTHZ_TRUSTED_ISSUER_DIDS') ?? '').split(',').map((d) => d.trim()).filter(Boolean)) {
    if (/^did:[a-z0-9]+:[^#?/\s]+$/.test(did)) issuerDids.push(did);
    else problems.push({ variable: 'AUTHZ_TRUSTED_ISSUER_DIDS', message: `"${did.slice(0, 80)}" is not a DID (did:<method>:<id>, without a path, query or fragment)` });
  }

  // Comma-separated lists; the rules mirror the core's, so that a bad entry stops the start here
  // (naming its variable) rather than when the authorizer is built.
  const list = (name) => value(name)?.split(',').map((entry) => entry.trim()).filter(Boolean);
  const origin = (text) => {
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
    let parsed;
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
  const trustListSigners = [];
  for (const path of (value('AUTHZ_TRUST_LIST_SIGNERS') ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    let text;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      problems.push({ variable: 'AUTHZ_TRUST_LIST_SIGNERS', message: `cannot read "${path}" (${error?.code ?? 'error'})` });
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
  const wholeNumber = (name) => {
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
  const milliseconds = (name, min) => {
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
  const dataRetention =
    afterTerminal === undefined && afterRead === undefined && mode === undefined
      ? undefined
      : { ...(afterTerminal !== undefined ? { afterTerminal } : {}), ...(afterRead !== undefined ? { afterRead } : {}), ...(mode !== undefined ? { mode } : {}) };

  // How long a claim on a wallet response holds without renewal (createAuthorizer({ claimLeaseMs })).
  const claimLeaseMs = wholeNumber('AUTHZ_CLAIM_LEASE_MS');
  if (claimLeaseMs !== undefined && (claimLeaseMs < 100 || claimLeaseMs > 60_000)) problems.push({ variable: 'AUTHZ_CLAIM_LEASE_MS', message: `must be 100–60000 (ms), got "${claimLeaseMs}"` });

  let cors = { enabled: false };
  try {
    cors = corsConfigFromEnv(env);
  } catch (error) {
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
  const dataIntegrity = {};
  const enabled = value('DATA_INTEGRITY_ENABLED');
  if (enabled !== undefined) {
    if (!/^(true|false|1|0)$/.test(enabled)) problems.push({ variable: 'DATA_INTEGRITY_ENABLED', message: `must be true, false, 1 or 0, got "${enabled}"` });
    else dataIntegrity.enabled = enabled === 'true' || enabled === '1';
  }
  const suites = value('DATA_INTEGRITY_CRYPTOSUITES');
  if (suites !== undefined) {
    const list = suites.split(',').map((s) => s.trim()).filter(Boolean);
    const unknown = list.filter((s) => !DATA_INTEGRITY_CRYPTOSUITES.includes(s));
    if (list.length === 0 || unknown.length > 0) problems.push({ variable: 'DATA_INTEGRITY_CRYPTOSUITES', message: `must list some of ${DATA_INTEGRITY_CRYPTOSUITES.join(', ')}${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}` });
    else dataIntegrity.cryptosuites = list;
  }
  for (const path of (value('DATA_INTEGRITY_CONTEXTS_FILE') ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    let contexts;
    try {
      contexts = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      problems.push({ variable: 'DATA_INTEGRITY_CONTEXTS_FILE', message: `cannot read "${path}" as JSON (${error?.code ?? 'invalid JSON'})` });
      continue;
    }
    if (typeof contexts !== 'object' || contexts === null || Array.isArray(contexts)) {
      problems.push({ variable: 'DATA_INTEGRITY_CONTEXTS_FILE', message: `"${path}" must hold an object of context documents by URL` });
      continue;
    }
    dataIntegrity.contexts = { ...dataIntegrity.contexts, ...contexts };
  }

  // The request-signing key on a PKCS#11 token (@vp-authorizer/pkcs11). The PIN never appears in a message.
  let pkcs11;
  const pkcs11Module = value('AUTHZ_PKCS11_MODULE');
  const readText = (variable, path) => {
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      problems.push({ variable, message: `cannot read ${path} (${error.code ?? 'error'})` });
      return undefined;
    }
  };
  if (pkcs11Module !== undefined) {
    const tokenLabel = value('AUTHZ_PKCS11_TOKEN_LABEL');
    const keyLabel = value('AUTHZ_PKCS11_KEY_LABEL');
    const pinFile = value('AUTHZ_PKCS11_PIN_FILE');
    const pin = pinFile !== undefined ? readText('AUTHZ_PKCS11_PIN_FILE', pinFile)?.trim() : env.AUTHZ_PKCS11_PIN;
    const chainFile = value('AUTHZ_SIGNING_CERT_CHAIN_FILE');
    const anchorFile = value('AUTHZ_SIGNING_TRUST_ANCHOR_FILE');
    if (tokenLabel === undefined) problems.push({ variable: 'AUTHZ_PKCS11_TOKEN_LABEL', message: 'is required with AUTHZ_PKCS11_MODULE (the token\'s label)' });
    if (keyLabel === undefined) problems.push({ variable: 'AUTHZ_PKCS11_KEY_LABEL', message: 'is required with AUTHZ_PKCS11_MODULE (the private key\'s CKA_LABEL)' });
    if (!pin) problems.push({ variable: 'AUTHZ_PKCS11_PIN', message: 'or AUTHZ_PKCS11_PIN_FILE is required with AUTHZ_PKCS11_MODULE (the token\'s user PIN)' });
    if (chainFile === undefined) problems.push({ variable: 'AUTHZ_SIGNING_CERT_CHAIN_FILE', message: 'is required with AUTHZ_PKCS11_MODULE (the key\'s certificate, leaf first, without the root)' });
    const chainText = chainFile !== undefined ? readText('AUTHZ_SIGNING_CERT_CHAIN_FILE', chainFile) : undefined;
    const certificateChain = chainText?.match(PEM_BLOCK) ?? [];
    if (chainText !== undefined && certificateChain.length === 0) problems.push({ variable: 'AUTHZ_SIGNING_CERT_CHAIN_FILE', message: `${chainFile} holds no PEM certificate` });
    const trustAnchor = anchorFile !== undefined ? readText('AUTHZ_SIGNING_TRUST_ANCHOR_FILE', anchorFile) : undefined;
    pkcs11 = { module: pkcs11Module, tokenLabel, keyLabel, pin, certificateChain, ...(trustAnchor ? { trustAnchor } : {}) };
  }

  // Registration certificates (ETSI TS 119 475 JWTs), one or more per file, separated by white space.
  let registrationCertificates;
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
  let readerAuth;
  const readerAuthMode = value('AUTHZ_READER_AUTH');
  const readerKeyFile = value('AUTHZ_READER_AUTH_KEY_FILE');
  const readerChainFile = value('AUTHZ_READER_AUTH_CERT_CHAIN_FILE');
  const readerAlg = value('AUTHZ_READER_AUTH_ALG');
  if (readerAuthMode !== undefined && readerAuthMode !== 'signing') problems.push({ variable: 'AUTHZ_READER_AUTH', message: `must be "signing" (sign readerAuth with the request-signing key), got "${readerAuthMode}"; for a dedicated reader key set AUTHZ_READER_AUTH_KEY_FILE and AUTHZ_READER_AUTH_CERT_CHAIN_FILE instead` });
  if (readerAlg !== undefined && readerAlg !== 'ES256' && readerAlg !== 'ESP256') problems.push({ variable: 'AUTHZ_READER_AUTH_ALG', message: `must be ES256 or ESP256, got "${readerAlg}"` });
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
    readerAuth = { identity: { privateKey, certificateChain } };
  } else if (readerAuthMode === 'signing') readerAuth = { identity: 'signing' };
  if (readerAuth && readerAlg) readerAuth.alg = readerAlg;
  if (!readerAuth && readerAlg !== undefined && readerKeyFile === undefined && readerChainFile === undefined && readerAuthMode === undefined) {
    problems.push({ variable: 'AUTHZ_READER_AUTH_ALG', message: 'needs AUTHZ_READER_AUTH=signing or AUTHZ_READER_AUTH_KEY_FILE (there is no readerAuth to sign)' });
  }

  if (problems.length > 0) throw new EnvConfigError(problems);
  return { port, host, publicBaseUrl, redirectUri, allowedRedirectUris, dcApiAllowedOrigins, dataRetention, apiKey, issuerRoots, issuerDids, redisUrl, postgresUrl, trustLists, memoryStoreQuota, claimLeaseMs, cors, dataIntegrity, pkcs11, registrationCertificates, readerAuth };
}

/** As the core decides it: an exact entry, or a URI on an entry that is an origin. */
function redirectAllowed(uri, allowList) {
  if (allowList.includes(uri)) return true;
  try {
    return allowList.includes(new URL(uri).origin);
  } catch {
    return false;
  }
}

/**
 * The store the settings ask for: `@vp-authorizer/postgres` on POSTGRES_URL (migrated at start);
 * `@vp-authorizer/redis` on REDIS_URL; a memory store with the
 * quota of AUTHZ_MEMORY_STORE_MAX_*; else undefined (the authorizer's own memory store, default
 * quota). `close()` quits the Redis client (or stops the memory store's sweep) after the
 * authorizer closed.
 * @param {{ redisUrl?: string; postgresUrl?: string; memoryStoreQuota?: { maxRecordsPerInstance?: number; maxBytesPerInstance?: number } }} config
 */
export async function storeFromConfig(config) {
  if (!config.redisUrl && config.memoryStoreQuota) {
    const store = memoryStore(config.memoryStoreQuota);
    return { store, close: async () => store.close() };
  }
  if (config.postgresUrl) return postgresFromConfig(config.postgresUrl);
  if (!config.redisUrl) return { store: undefined, close: async () => {} };
  const { redisStore } = await import('@vp-authorizer/redis');
  let store;
  try {
    store = redisStore({ url: config.redisUrl });
  } catch {
    // The URL may carry a password: neither it nor a message that could quote it is shown.
    throw new EnvConfigError([{ variable: 'REDIS_URL', message: 'the Redis store cannot be created with this URL' }]);
  }
  return { store, close: () => store.close() };
}

/**
 * `@vp-authorizer/postgres` on POSTGRES_URL. The examples apply the migrations themselves at
 * start, explicitly and logged (the library never does so on its own); a deployment runs
 * `vp-authorizer-postgres migrate` in its deploy step instead.
 */
async function postgresFromConfig(url) {
  const { migrate, postgresStore } = await import('@vp-authorizer/postgres');
  let store;
  try {
    store = postgresStore({ url });
  } catch {
    // The URL may carry a password: neither it nor a message that could quote it is shown.
    throw new EnvConfigError([{ variable: 'POSTGRES_URL', message: 'the Postgres store cannot be created with this URL' }]);
  }
  let result;
  try {
    result = await migrate(url);
  } catch (error) {
    await store.close();
    // node-postgres' messages name the failure (refused, authentication failed), never the password.
    throw new EnvConfigError([{ variable: 'POSTGRES_URL', message: `applying the store's migrations failed: ${error instanceof Error ? error.message : String(error)}` }]);
  }
  console.log(
    `[store] PostgreSQL schema ${result.schema}: ${result.applied.length > 0 ? `applied migration ${result.applied.join(', ')}` : 'up to date'} (version ${result.to})`,
  );
  return { store, close: () => store.close() };
}

/**
 * The instance's `config` from the settings (the redirect URI, the redirect allow-list, the DC API
 * allowed origins, the retention of disclosed data; undefined keys are left out). A default redirect URI (the demo's own callback)
 * outside AUTHZ_ALLOWED_REDIRECT_URIS is refused here, naming the variable.
 */
export function instanceConfigFromEnv(config, defaults = {}) {
  const redirectUri = config.redirectUri ?? defaults.redirectUri;
  if (redirectUri !== undefined && config.allowedRedirectUris !== undefined && !redirectAllowed(redirectUri, config.allowedRedirectUris)) {
    throw new EnvConfigError([{ variable: 'AUTHZ_ALLOWED_REDIRECT_URIS', message: `does not allow the default redirect URI ${redirectUri}: add it (or its origin), or set AUTHZ_REDIRECT_URI` }]);
  }
  const openId4vp = {
    ...(redirectUri ? { redirectUri } : {}),
    ...(config.allowedRedirectUris ? { allowedRedirectUris: config.allowedRedirectUris } : {}),
    ...(config.dcApiAllowedOrigins ? { dcApi: { allowedOrigins: config.dcApiAllowedOrigins } } : {}),
    ...(config.dataRetention ? { dataRetention: config.dataRetention } : {}),
  };
  return Object.keys(openId4vp).length > 0 ? { openId4vp } : {};
}

/**
 * Issuer roots from trusted lists (`@vp-authorizer/trust-lists`) when AUTHZ_TRUST_LISTS is set:
 * loaded in the background, or before the server starts with AUTHZ_TRUST_LISTS_WAIT.
 * @param {{ trustLists?: { sources: string[]; signers: string[]; wait: boolean } }} config
 */
export async function trustListsFromConfig(config) {
  if (!config.trustLists) return undefined;
  const { trustLists } = await import('@vp-authorizer/trust-lists');
  const lists = trustLists({ sources: config.trustLists.sources, signers: config.trustLists.signers });
  if (config.trustLists.wait) await lists.ready();
  else void lists.start();
  return lists;
}

/**
 * The authorizer of the example apps: one instance `main` with the settings' API key (a random one
 * when unset), a generated dev signing chain, the local validator and verifier trusting the
 * settings' issuer roots and trusted lists (a throwaway root, trusting nobody, when neither is
 * set), the redirect URI, and the Redis store when REDIS_URL is set.
 * @param {ReturnType<typeof configFromEnv>} config
 * @param {{ origin: string; mountPath: string }} where  the listening origin and where the authorizer is mounted
 */
export async function exampleAuthorizer(config, { origin, mountPath }) {
  const { store, close: closeStore } = await storeFromConfig(config);
  const apiKey = config.apiKey ?? randomBytes(18).toString('base64url');
  // AUTHZ_READER_AUTH=signing: the generated chain's leaf is then also an mdoc reader certificate.
  const { signing: devSigning, rootCertificatePem } = await generateDevSigningKey(config.readerAuth?.identity === 'signing' ? { readerAuth: true } : {});
  let signer;
  if (config.pkcs11) {
    const { openPkcs11Signer } = await import('@vp-authorizer/pkcs11');
    const { module, tokenLabel, keyLabel, pin, certificateChain } = config.pkcs11;
    signer = await openPkcs11Signer({ module, token: { label: tokenLabel }, pin, key: { label: keyLabel }, certificateChain });
  }
  const signing = signer ? { signer, ...(config.pkcs11.trustAnchor ? { trustAnchor: config.pkcs11.trustAnchor } : {}) } : devSigning;
  const lists = await trustListsFromConfig(config);
  const trusted = config.issuerRoots.length > 0 ? config.issuerRoots : lists ? [] : [rootCertificatePem];
  const authorizer = createAuthorizer({
    publicBaseUrl: config.publicBaseUrl ?? `${origin}${mountPath}`,
    ...(store ? { store } : {}),
    ...(config.claimLeaseMs !== undefined ? { claimLeaseMs: config.claimLeaseMs } : {}),
    instances: [
      {
        id: 'main',
        apiKeys: [apiKey],
        signing,
        ...(config.registrationCertificates ? { registrationCertificates: config.registrationCertificates } : {}),
        ...(config.readerAuth ? { readerAuth: config.readerAuth } : {}),
        validator: localValidator({
          ...(trusted.length + config.issuerDids.length > 0 ? { trustedIssuers: [...trusted, ...config.issuerDids] } : {}),
          ...(lists ? { issuerAnchors: lists } : {}),
          ...(config.dataIntegrity?.contexts ? { contexts: config.dataIntegrity.contexts } : {}),
        }),
        verifier: localVerifier({ trustAnchors: trusted, dataIntegrity: config.dataIntegrity ?? {}, ...(lists ? { issuerAnchors: lists } : {}) }),
        config: instanceConfigFromEnv(config),
      },
    ],
  });
  return {
    authorizer,
    apiKey,
    trustLists: lists,
    async close() {
      lists?.close();
      await authorizer.close();
      await signer?.close();
      await closeStore();
    },
  };
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
