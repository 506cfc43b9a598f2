// The example apps' and the demo's configuration from environment variables: one loader, validated
// at start. Every problem names its variable; no message ever contains the API key.
// The table of variables is docs/examples-configuration.md.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { corsConfigFromEnv, createAuthorizer, generateDevSigningKey } from '@vp-authorizer/core';
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

  const redisUrl = value('REDIS_URL');
  if (redisUrl !== undefined && !/^rediss?:\/\/[^\s]+$/.test(redisUrl)) {
    // Not quoted: the URL may carry a password.
    problems.push({ variable: 'REDIS_URL', message: 'must be a redis:// or rediss:// URL' });
  }

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

  if (problems.length > 0) throw new EnvConfigError(problems);
  return { port, host, publicBaseUrl, redirectUri, apiKey, issuerRoots, redisUrl, cors, dataIntegrity };
}

/**
 * The store the settings ask for: `@vp-authorizer/redis` on REDIS_URL, else undefined (the
 * authorizer's memory store). `close()` quits the Redis client after the authorizer closed.
 * @param {{ redisUrl?: string }} config
 */
export async function storeFromConfig(config) {
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

/** The instance's `config` from the settings (the redirect URI; undefined keys are left out). */
export function instanceConfigFromEnv(config, defaults = {}) {
  const redirectUri = config.redirectUri ?? defaults.redirectUri;
  return redirectUri ? { openId4vp: { redirectUri } } : {};
}

/**
 * The authorizer of the example apps: one instance `main` with the settings' API key (a random one
 * when unset), a generated dev signing chain, the local validator and verifier trusting the
 * settings' issuer roots (a throwaway root, trusting nobody, when unset), the redirect URI, and the
 * Redis store when REDIS_URL is set.
 * @param {ReturnType<typeof configFromEnv>} config
 * @param {{ origin: string; mountPath: string }} where  the listening origin and where the authorizer is mounted
 */
export async function exampleAuthorizer(config, { origin, mountPath }) {
  const { store, close: closeStore } = await storeFromConfig(config);
  const apiKey = config.apiKey ?? randomBytes(18).toString('base64url');
  const { signing, rootCertificatePem } = await generateDevSigningKey();
  const trusted = config.issuerRoots.length > 0 ? config.issuerRoots : [rootCertificatePem];
  const authorizer = createAuthorizer({
    publicBaseUrl: config.publicBaseUrl ?? `${origin}${mountPath}`,
    ...(store ? { store } : {}),
    instances: [
      {
        id: 'main',
        apiKeys: [apiKey],
        signing,
        validator: localValidator({ trustedIssuers: trusted }),
        verifier: localVerifier({ trustAnchors: trusted, dataIntegrity: config.dataIntegrity ?? {} }),
        config: instanceConfigFromEnv(config),
      },
    ],
  });
  return {
    authorizer,
    apiKey,
    async close() {
      await authorizer.close();
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
    `  issuer roots:    ${[defaults.issuerRoots, config.issuerRoots.length > 0 ? `${config.issuerRoots.length} from ISSUER_ROOT_PEM / ISSUER_ROOT_PEM_FILE` : undefined].filter(Boolean).join(' + ') || '(unset: a throwaway root that trusts nobody)'}`,
    `  store:           ${config.redisUrl ? 'Redis (REDIS_URL)' : 'memory'}`,
    `  CORS:            ${config.cors.enabled ? `on for ${(config.cors.origin ?? ['*']).join(', ')}` : 'off (EXPRESS_CORS_ENABLED)'}`,
  ].join('\n');
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
