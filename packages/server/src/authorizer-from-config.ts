import { randomBytes } from 'node:crypto';
import { createAuthorizer, type Authorizer, type ReadinessCheck, type InstanceConfigInput, type Logger, type SigningInput } from '@vp-authorizer/core';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { localValidator, localVerifier, type IssuerAnchorSource } from '@vp-authorizer/local';
import { EnvConfigError, redirectAllowed, type DataRetentionSetting, type EnvConfig } from './config-from-env.js';
import { storeFromConfig, type ConfiguredStore, type StoreFromConfigOptions } from './store-from-config.js';

/** Loaded trusted lists (a TrustLists of @vp-authorizer/trust-lists, an optional peer dependency): issuer anchors that refresh in the background. */
export interface LoadedTrustLists extends IssuerAnchorSource {
  close(): void;
  /** The check GET /health/ready asks: not ready while a list is stale, failed or not yet loaded. */
  readiness(): ReadinessCheck;
}

/** The settings an authorizer is built from: the environment's, and what only a configuration file can say. */
export interface AuthorizerSettings extends EnvConfig {
  /** The instance's id (default `main`). */
  instanceId?: string;
  /** The instance's API keys; AUTHZ_API_KEY (`apiKey`) replaces them. */
  apiKeys?: string[];
  /** The instance configuration of the hosted API (cors, policies, openId4vp, didMethods); the environment's openId4vp settings override its members. */
  instanceConfig?: InstanceConfigInput;
}

export interface AuthorizerFromConfigOptions {
  /** The listening origin (`http://127.0.0.1:3001`): the public base URL's default with `mountPath`. */
  origin: string;
  /** Where the authorizer is mounted (`/authz`, or '' at the root). */
  mountPath: string;
  /** How the Postgres store starts (default: migrations applied). */
  store?: StoreFromConfigOptions;
  /** Refuse to start without an API key instead of generating one (the standalone server). */
  requireApiKey?: boolean;
  logger?: Logger | 'console';
  onError?: (error: unknown) => void;
}

export interface ConfiguredAuthorizer {
  authorizer: Authorizer;
  /** The first API key: the configured one, or a random one when none was set and `requireApiKey` is off. */
  apiKey: string;
  /** How the request-signing key was set up (`generated`: a new development chain at every start). */
  signingKey: 'pkcs11' | 'aws-kms' | 'file' | 'generated';
  store: ConfiguredStore['kind'];
  trustLists: LoadedTrustLists | undefined;
  /** Closes the authorizer, then the trusted lists, the signer and the store. */
  close(): Promise<void>;
}

/**
 * The instance's `config` from the settings (the redirect URI, the redirect allow-list, the DC API
 * allowed origins, the retention of disclosed data; undefined keys are left out). A default redirect URI (the demo's own callback)
 * outside AUTHZ_ALLOWED_REDIRECT_URIS is refused here, naming the variable.
 */
export function instanceConfigFromEnv(
  config: { redirectUri?: string; allowedRedirectUris?: string[]; dcApiAllowedOrigins?: string[]; dataRetention?: DataRetentionSetting },
  defaults: { redirectUri?: string } = {},
): { openId4vp?: { redirectUri?: string; allowedRedirectUris?: string[]; dcApi?: { allowedOrigins: string[] }; dataRetention?: DataRetentionSetting } } {
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
 * The configuration file's instance configuration with the environment's settings over it: each
 * openId4vp member the environment sets (redirectUri, allowedRedirectUris, dcApi.allowedOrigins,
 * dataRetention) replaces the file's; the rest of the file's configuration stays.
 */
export function mergeInstanceConfig(file: InstanceConfigInput | undefined, env: ReturnType<typeof instanceConfigFromEnv>): InstanceConfigInput {
  const base = (file ?? {}) as Record<string, unknown>;
  if (!env.openId4vp) return base as InstanceConfigInput;
  const fileOpenId4vp = (base.openId4vp ?? {}) as Record<string, unknown>;
  const { dcApi, ...rest } = env.openId4vp;
  const openId4vp = { ...fileOpenId4vp, ...rest, ...(dcApi ? { dcApi: { ...((fileOpenId4vp.dcApi as object | undefined) ?? {}), ...dcApi } } : {}) };
  return { ...base, openId4vp } as InstanceConfigInput;
}

/**
 * Issuer roots from trusted lists (`@vp-authorizer/trust-lists`, an optional peer dependency) when
 * AUTHZ_TRUST_LISTS is set: loaded in the background, or before the server starts with AUTHZ_TRUST_LISTS_WAIT.
 */
export async function trustListsFromConfig(config: { trustLists?: EnvConfig['trustLists'] }): Promise<LoadedTrustLists | undefined> {
  if (!config.trustLists) return undefined;
  const { trustLists } = await importOptional(() => import('@vp-authorizer/trust-lists'), '@vp-authorizer/trust-lists', 'AUTHZ_TRUST_LISTS');
  const lists = trustLists({ sources: config.trustLists.sources, signers: config.trustLists.signers });
  if (config.trustLists.wait) await lists.ready();
  else void lists.start();
  return lists;
}

/**
 * One authorizer instance from the settings: the API key (a random one when unset, unless
 * `requireApiKey`), the request-signing key (a PKCS#11 token, a PEM key file, or a development
 * chain generated at start), the local validator and verifier trusting the issuer roots, DIDs and
 * trusted lists (a throwaway root, trusting nobody, when none is set), the instance configuration,
 * and the store.
 */
export async function authorizerFromConfig(config: AuthorizerSettings, options: AuthorizerFromConfigOptions): Promise<ConfiguredAuthorizer> {
  const apiKeys = config.apiKey !== undefined ? [config.apiKey] : (config.apiKeys ?? []);
  if (apiKeys.length === 0 && options.requireApiKey) {
    throw new EnvConfigError([{ variable: 'AUTHZ_API_KEY', message: 'is required (or instance.apiKeys in the configuration file): the key your backend sends as Authorization: Bearer <key>' }]);
  }
  if (apiKeys.length === 0) apiKeys.push(randomBytes(18).toString('base64url'));
  const instanceConfig = mergeInstanceConfig(config.instanceConfig, instanceConfigFromEnv(config));
  const configured = await storeFromConfig(config, options.store);
  const opened: { close(): Promise<void> | void }[] = [configured];
  try {
    const { signing, signingKey, rootCertificatePem, close: closeSigner } = await signingFromConfig(config);
    opened.unshift({ close: closeSigner });
    const lists = await trustListsFromConfig(config);
    if (lists) opened.unshift({ close: () => lists.close() });
    const trusted = config.issuerRoots.length > 0 ? config.issuerRoots : lists ? [] : rootCertificatePem ? [rootCertificatePem] : [];
    const authorizer = createAuthorizer({
      publicBaseUrl: config.publicBaseUrl ?? `${options.origin}${options.mountPath}`,
      // authorizer.fetch() is then served under the same mount as the adapters (Next.js route handlers, Workers).
      basePath: options.mountPath,
      ...(configured.store ? { store: configured.store } : {}),
      ...(config.claimLeaseMs !== undefined ? { claimLeaseMs: config.claimLeaseMs } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.onError ? { onError: options.onError } : {}),
      ...(lists ? { readiness: [lists.readiness()] } : {}),
      instances: [
        {
          id: config.instanceId ?? 'main',
          apiKeys,
          signing,
          ...(config.registrationCertificates ? { registrationCertificates: config.registrationCertificates } : {}),
          ...(config.readerAuth ? { readerAuth: config.readerAuth } : {}),
          validator: localValidator({
            ...(trusted.length + config.issuerDids.length > 0 ? { trustedIssuers: [...trusted, ...config.issuerDids] } : {}),
            ...(lists ? { issuerAnchors: lists } : {}),
            ...(config.dataIntegrity?.contexts ? { contexts: config.dataIntegrity.contexts } : {}),
          }),
          verifier: localVerifier({ trustAnchors: trusted, dataIntegrity: config.dataIntegrity ?? {}, ...(lists ? { issuerAnchors: lists } : {}) }),
          config: instanceConfig,
        },
      ],
    });
    const closeAll = async () => {
      for (const resource of opened) await resource.close();
    };
    return {
      authorizer,
      apiKey: apiKeys[0]!,
      signingKey,
      store: configured.kind,
      trustLists: lists,
      async close() {
        await authorizer.close();
        await closeAll();
      },
    };
  } catch (error) {
    for (const resource of opened) await Promise.resolve(resource.close()).catch(() => undefined);
    throw error;
  }
}

/** The request-signing identity: a key on a PKCS#11 token, in AWS KMS, a PEM key file, or a development chain generated now. */
async function signingFromConfig(config: EnvConfig): Promise<{ signing: SigningInput; signingKey: ConfiguredAuthorizer['signingKey']; rootCertificatePem?: string; close(): Promise<void> }> {
  if (config.pkcs11) {
    const { openPkcs11Signer } = await importOptional(() => import('@vp-authorizer/pkcs11'), '@vp-authorizer/pkcs11', 'AUTHZ_PKCS11_MODULE');
    const { module, tokenLabel, keyLabel, pin, certificateChain, trustAnchor } = config.pkcs11;
    const signer = await openPkcs11Signer({ module, token: { label: tokenLabel }, pin, key: { label: keyLabel }, certificateChain });
    return { signing: { signer, ...(trustAnchor ? { trustAnchor } : {}) }, signingKey: 'pkcs11', close: () => signer.close() };
  }
  if (config.awsKms) {
    const { awsKmsSigner } = await importOptional(() => import('@vp-authorizer/kms-aws'), '@vp-authorizer/kms-aws', 'AUTHZ_AWS_KMS_KEY_ID', '@vp-authorizer/kms-aws @aws-sdk/client-kms');
    const { keyId, region, endpoint, certificateChain, trustAnchor } = config.awsKms;
    // Credentials: the AWS SDK's default chain (environment, shared config, SSO, instance or task role).
    const signer = awsKmsSigner({ keyId, region, ...(endpoint ? { endpoint } : {}), certificateChain });
    return { signing: { signer, ...(trustAnchor ? { trustAnchor } : {}) }, signingKey: 'aws-kms', close: async () => signer.close() };
  }
  if (config.signingKey) {
    const { privateKey, certificateChain, trustAnchor } = config.signingKey;
    return { signing: { privateKey, certificateChain, ...(trustAnchor ? { trustAnchor } : {}) }, signingKey: 'file', close: async () => {} };
  }
  // The throwaway root of this chain is what the examples trust when nothing else is set: it trusts no real issuer.
  // AUTHZ_READER_AUTH=signing: the generated chain's leaf is then also an mdoc reader certificate.
  const { signing, rootCertificatePem } = await generateDevSigningKey(config.readerAuth?.identity === 'signing' ? { readerAuth: true } : {});
  return { signing, signingKey: 'generated', rootCertificatePem, close: async () => {} };
}

/** An optional peer dependency, or a start refused with the install line. */
async function importOptional<T>(load: () => Promise<T>, name: string, variable: string, install = name): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' || (error as { code?: string }).code === 'MODULE_NOT_FOUND') {
      throw new EnvConfigError([{ variable, message: `needs ${name}: install it beside @vp-authorizer/server (npm install ${install})` }]);
    }
    throw error;
  }
}
