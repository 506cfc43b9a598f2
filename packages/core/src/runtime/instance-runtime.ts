import type { ValidatorClient } from '../model/validator-client.js';
import type { VerifierClient } from '../model/verifier-client.js';
import type { ResolvedInstanceOptions } from '../config/authorizer-options.js';
import type { InstanceConfig } from '../config/instance-config.js';
import { resolveServiceClient } from '../clients/resolve-service-client.js';
import { checkRegistrationCertificates, type RegistrationInfoEntry } from '../config/registration-certificates.js';
import { checkSigningIdentities, haipSigners, leafCertificateOf, loadSigningIdentities, type HaipSigner, type SigningIdentity, type SigningMaterial } from '../request/signing-material.js';
import { webhookKey } from '../crypto/webhook-signature.js';
import type { ReaderAuthSigner } from '../crypto/reader-authentication.js';
import { checkReaderAuth, loadReaderAuthSigner } from '../request/reader-auth-identity.js';
import { isAllowedRedirectUri } from '../config/redirect-uri.js';
import { dcApiAllowedOrigins } from '../config/dc-api-allowed-origins.js';
import { ConfigError } from '../errors/config-error.js';
import { AuthorizerError } from '../errors/authorizer-error.js';

/** One instance, validated and ready: config parsed, clients resolved. */
export interface InstanceRuntime {
  id: string;
  config: InstanceConfig;
  /** `undefined` when validate is skipped. */
  validator: ValidatorClient | undefined;
  /** `undefined` when verify is skipped. */
  verifier: VerifierClient | undefined;
  /** The primary signing identity's material (request objects, signed DC API requests, trust anchor). */
  signing(): Promise<SigningMaterial>;
  /** What the HAIP signing rules check of every signing identity, primary first (derived at construction). */
  haipSigners: readonly HaipSigner[];
  /** The instance's checked registration certificates as `verifier_info` entries (empty without). */
  registrationInfo: readonly RegistrationInfoEntry[];
  /** Every signing identity, primary first, retired ones included (JWKS, trust anchors). */
  signingIdentities(): Promise<SigningIdentity[]>;
  /** What signs the readerAuth of org-iso-mdoc DocRequests (loaded on first use); absent without the readerAuth option. */
  readerAuth: (() => Promise<ReaderAuthSigner>) | undefined;
  /**
   * The material of the identity an authorization was created under (its client_id), retired or
   * not: rotation must not break an authorization a wallet has not fetched yet. Refuses with
   * `signing.identity_removed` when the identity is no longer configured.
   */
  signingFor(clientId: string | undefined): Promise<SigningMaterial>;
  /**
   * Lifetime of a claim on a wallet response (counted from the claim, not from expiresAt): the
   * slowest client timeout plus a margin for the store writes. A claim still undecided after it
   * was abandoned (the process died or lost its store) and the authorization ends `error`.
   */
  claimGraceMs: number;
  /**
   * Store TTL of an authorization a wallet has taken up (counted from its creation): its lifetime,
   * the processing grace, then the retention. A record gets it when the request object is first
   * fetched, or at creation for the DC API (whose request is handed out at once).
   */
  recordTtlMs: number;
  /**
   * Store TTL of a new record no wallet has fetched yet: its lifetime, then one expiry sweep
   * interval and a minute, so that the sweep can still announce it `expired` (and a poll read it).
   * Never fetched, it has no outcome to keep for the retention.
   */
  unfetchedTtlMs: number;
  /** Where unsigned DC API responses may come from when a request names no expectedOrigins (dcApiAllowedOrigins). */
  dcApiAllowedOrigins: readonly string[];
  /** Status webhooks of this instance: the default URL and the HMAC key (the secret is not kept). */
  webhooks: { url: string | undefined; key: Buffer } | undefined;
}

/** Added to the slowest client timeout to bound a claim. */
export const CLAIM_MARGIN_MS = 15_000;
/** Added to the lifetime and the sweep interval of a record never fetched (a sweep's own time, clocks of several processes). */
export const UNFETCHED_MARGIN_MS = 60_000;

export function createInstanceRuntime(
  /** Validated by authorizerOptionsSchema: `config` has its defaults. */
  options: ResolvedInstanceOptions,
  index: number,
  registry: { validators?: Record<string, ValidatorClient>; verifiers?: Record<string, VerifierClient> },
  authorizer: {
    /** How often the authorizer sweeps overdue authorizations, in ms (0: only lazily on read). */
    sweepIntervalMs: number;
    /** The authorizer's public base URL (validated). */
    publicBaseUrl: string;
  },
): InstanceRuntime {
  const where = `instances[${index}] (${options.id})`;
  const { config } = options;
  checkRedirectUriAllowed(config, index);
  checkDataRetention(config, index);
  // Checked now (fail fast); the keys are imported on first use.
  const signingInputs = checkSigningIdentities(options.signing, config.openId4vp.clientIdPrefix, `instances.${index}.signing`);
  const checkedReaderAuth = checkReaderAuth(options.readerAuth, signingInputs[0]!, `instances.${index}.readerAuth`, Array.isArray(options.signing) ? `instances.${index}.signing.0` : `instances.${index}.signing`);
  const registrationInfo = Object.freeze(checkRegistrationCertificates(options.registrationCertificates, leafCertificateOf(signingInputs[0]!), Date.now(), `instances.${index}.registrationCertificates`));
  const { validate, verify } = config.policies;
  const validator = validate.skip ? undefined : resolveServiceClient(validate.validator, registry.validators ?? {}, options.validator, `${where}: policies.validate.validator`, { instancePath: `instances[${index}] (${options.id})`, role: 'validator' });
  const verifier = verify.skip ? undefined : resolveServiceClient(verify.verifier, registry.verifiers ?? {}, options.verifier, `${where}: policies.verify.verifier`, { instancePath: `instances[${index}] (${options.id})`, role: 'verifier' });
  let identities: Promise<SigningIdentity[]> | undefined;
  // Loaded once; a failed load (a token not reachable yet) is forgotten so that the next request tries again.
  const loadIdentities = () =>
    (identities ??= loadSigningIdentities(signingInputs, config.openId4vp.clientIdPrefix).catch((error: unknown) => {
      identities = undefined;
      throw error;
    }));
  let readerAuthSigner: Promise<ReaderAuthSigner> | undefined;
  const primaryMaterial = async () => (await loadIdentities())[0]!.material;
  const readerAuth = checkedReaderAuth
    ? () =>
        (readerAuthSigner ??= loadReaderAuthSigner(checkedReaderAuth, primaryMaterial).catch((error: unknown) => {
          readerAuthSigner = undefined;
          throw error;
        }))
    : undefined;
  // validate and verify run in parallel; each call is bounded by its own timeout. The margin covers
  // format parsing and the few store writes around the calls (each bounded by the store's own timeout).
  const claimGraceMs = Math.max(validate.timeoutMs, verify.timeoutMs) + CLAIM_MARGIN_MS;
  return {
    id: options.id,
    config,
    claimGraceMs,
    // A code issued at the last moment must still find its record: keep at least the code's lifetime.
    recordTtlMs: config.openId4vp.expiresAfter + claimGraceMs + Math.max(config.openId4vp.retention, config.openId4vp.responseCodeTtl),
    unfetchedTtlMs: config.openId4vp.expiresAfter + authorizer.sweepIntervalMs + UNFETCHED_MARGIN_MS,
    dcApiAllowedOrigins: dcApiAllowedOrigins(config, authorizer.publicBaseUrl),
    validator,
    verifier,
    webhooks: options.webhooks ? { url: options.webhooks.url, key: webhookKey(options.webhooks.secret)! } : undefined,
    haipSigners: haipSigners(signingInputs, config.openId4vp.clientIdPrefix),
    registrationInfo,
    signing: primaryMaterial,
    readerAuth,
    signingFor: async (clientId) => {
      const identities = await loadIdentities();
      if (clientId === undefined) return identities[0]!.material;
      const identity = identities.find((i) => i.clientId === clientId);
      if (!identity) throw new AuthorizerError('signing.identity_removed');
      return identity.material;
    },
    signingIdentities: loadIdentities,
  };
}

/** The instance's own redirect URI must be one its allow-list allows, as every request's must. */
function checkRedirectUriAllowed(config: InstanceConfig, index: number): void {
  const { redirectUri, allowedRedirectUris } = config.openId4vp;
  if (redirectUri === undefined || isAllowedRedirectUri(redirectUri, allowedRedirectUris)) return;
  throw new ConfigError('Invalid instance configuration:', [
    { path: `instances.${index}.config.openId4vp.redirectUri`, message: 'is neither listed in openId4vp.allowedRedirectUris nor on an origin listed there: add it (or its origin) to allowedRedirectUris' },
  ]);
}

/**
 * A retention window must fit the record's life: one shorter than the response code's would let a
 * code resolve to an authorization whose claims are already gone, and one longer than `retention`
 * would promise a time the record never reaches.
 */
function checkDataRetention(config: InstanceConfig, index: number): void {
  const { dataRetention, responseCodeTtl, retention } = config.openId4vp;
  const path = `instances.${index}.config.openId4vp.dataRetention`;
  const problems: { path: string; message: string }[] = [];
  const { afterTerminal, afterRead } = dataRetention;
  if (afterTerminal !== undefined && afterTerminal < responseCodeTtl) {
    problems.push({ path: `${path}.afterTerminal`, message: `(${afterTerminal} ms) is shorter than openId4vp.responseCodeTtl (${responseCodeTtl} ms): a response code would outlive the claims it leads to; lower responseCodeTtl or raise afterTerminal` });
  }
  for (const [name, window] of [['afterTerminal', afterTerminal], ['afterRead', afterRead]] as const) {
    if (window !== undefined && window > Math.max(retention, responseCodeTtl)) {
      problems.push({ path: `${path}.${name}`, message: `(${window} ms) is longer than openId4vp.retention (${retention} ms), which bounds how long any record is kept: shorten the window or raise retention` });
    }
  }
  if (problems.length > 0) throw new ConfigError('Invalid instance configuration:', problems);
}
