import * as v from 'valibot';
import type { ValidatorClient } from '../model/validator-client.js';
import type { VerifierClient } from '../model/verifier-client.js';
import type { AuthorizerEvent } from '../events/authorizer-event.js';
import type { Logger } from '../events/logger.js';
import type { Instrumentation } from '../events/instrumentation.js';
import type { AuthorizerStore } from '../model/authorizer-store.js';
import type { ReadinessCheck } from '../model/readiness-check.js';
import type { SigningOption } from './signing-input.js';
import type { RegistrationCertificateInput } from './registration-certificates.js';
import type { ReaderAuthOption } from './reader-auth-input.js';
import { instanceConfigSchema } from './instance-config.js';
import { MIN_WEBHOOK_SECRET_BYTES, webhookKey } from '../crypto/webhook-signature.js';
import type { OutboundFetchPolicy } from '../outbound/outbound-fetch-policy.js';

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

// Members that are objects with behaviour (clients, store, hooks) are checked for shape only and
// passed through unchanged (v.custom keeps the caller's object, so `this` and identity survive).
const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;
const withMethods = <T>(methods: string[], what: string) =>
  v.custom<T>((x) => isObject(x) && methods.every((m) => typeof x[m] === 'function'), `${what} must have ${methods.map((m) => `${m}()`).join(', ')}`);
/** Upper bound of the delays and intervals: a timer of 2^31 ms or more would fire after 1 ms. */
const DAY_MS = 86_400_000;
const isProduction = () => (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.NODE_ENV === 'production';
const fn = <T extends (...args: never[]) => unknown>(what: string) => v.custom<T>((x) => typeof x === 'function', `${what} must be a function`);

export const instanceOptionsSchema = v.object({
  /** Scopes every record; another instance asking for it gets 404. */
  id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.-]{1,64}$/, 'instance id must be 1-64 characters of A-Z a-z 0-9 _ . -')),
  /** Bearer keys accepted for relying-party routes. Kept only as SHA-256 digests. */
  apiKeys: v.pipe(
    v.array(
      v.pipe(
        v.string(),
        v.minLength(8, 'API keys must be at least 8 characters'),
        v.maxLength(512, 'API keys must be at most 512 characters'),
        // What a Bearer header can carry as one token: anything else could never be presented.
        v.regex(/^[\x21-\x7e]+$/, 'API keys must be printable ASCII without spaces (what an Authorization: Bearer header carries)'),
      ),
    ),
    v.minLength(1, 'at least one API key is required'),
  ),
  /** Instance configuration (cors, policies, openId4vp, didMethods); defaults filled in. */
  config: instanceConfigSchema,
  /**
   * Request-object signing key and certificate chain (generateDevSigningKey of @vp-authorizer/keys
   * makes one for development), or a RequestSigner holding the key elsewhere (`{ signer }`: a
   * PKCS#11 token, a KMS), or a non-empty array of them: the first is the primary (request
   * objects, signed DC API requests), and multi-signed DC API requests carry one signature per
   * entry. Keys and certificates are checked in depth by the instance runtime
   * (checkSigningIdentities), which reports every problem with its path.
   */
  signing: v.custom<SigningOption>(isObject, 'signing must be an object { privateKey, certificateChain, trustAnchor?, clientIdPrefix? } or { signer, trustAnchor?, clientIdPrefix?, timeoutMs? }, or a non-empty array of them'),
  /**
   * Registration certificates of the relying party (ETSI TS 119 475 WRPRC, JWT with typ
   * rc-wrp+jwt), each a JWT or `{ jwt, credentialIds? }`. Checked at construction (signature under
   * their x5c, validity, `sub.id` = the access certificate's organizationIdentifier); every signed
   * request carries them in `verifier_info` as `{ format: "registration_cert", data }`.
   */
  registrationCertificates: v.optional(v.custom<RegistrationCertificateInput[]>((x) => Array.isArray(x), 'registrationCertificates must be an array of JWT strings or { jwt, credentialIds? }')),
  /**
   * Sign the DocRequests of `org-iso-mdoc` requests (ISO/IEC 18013-7 Annex C) with readerAuth:
   * `true` (the primary signing identity, whose leaf must then be an mdoc reader certificate) or
   * `{ identity?, alg? }` (a dedicated reader key or signer; ES256 or ESP256). Checked at
   * construction (readerAuth.* paths), including the reader certificate's extended key usage.
   */
  readerAuth: v.optional(v.custom<ReaderAuthOption>((x) => x === true || isObject(x), 'readerAuth must be true or { identity?, alg? }')),
  /**
   * Status webhooks: every status change of this instance's authorizations is POSTed, signed, to
   * `url` (or to the `webhookUrl` a create request names, which replaces it for that
   * authorization). Without `webhooks`, nothing is sent and `webhookUrl` is refused.
   */
  webhooks: v.optional(
    v.object({
      /** Receives every status change; checked against the outbound-fetch policy at startup. */
      url: v.optional(v.pipe(v.string('webhooks.url must be a string'), v.url('webhooks.url must be an absolute URL'))),
      /**
       * HMAC-SHA256 key of the `webhook-signature` header: `whsec_` + base64 of at least 32 bytes
       * (the Standard Webhooks form), or any other string of at least 32 bytes (used as UTF-8).
       */
      secret: v.pipe(
        v.string('webhooks.secret must be a string'),
        v.check((s) => (webhookKey(s)?.length ?? 0) >= MIN_WEBHOOK_SECRET_BYTES, `webhooks.secret must hold at least ${MIN_WEBHOOK_SECRET_BYTES} bytes (a string of 32+ bytes, or whsec_ followed by the base64 of 32+ random bytes)`),
      ),
    }),
  ),
  /** The `managed` validator (policies.validate.validator = {type: 'managed'}). */
  validator: v.optional(withMethods<ValidatorClient>(['validate'], 'validator')),
  /** The `managed` verifier. */
  verifier: v.optional(withMethods<VerifierClient>(['verify', 'verifyIdToken'], 'verifier')),
});

export const authorizerOptionsSchema = v.object({
  /** Absolute public URL where the authorizer is mounted (used for response_uri, request_uri). Never taken from request headers. */
  publicBaseUrl: v.pipe(
    v.string(),
    v.check((u) => {
      if (!URL.canParse(u)) return false;
      const url = new URL(u);
      // No userinfo: the URL is published (openapi.json servers, response_uri, request_uri).
      return /^https?:$/.test(url.protocol) && !url.search && !url.hash && !url.username && !url.password;
    }, 'publicBaseUrl must be an absolute http(s) URL without credentials, query or fragment'),
    // Wallets refuse (and networks alter) request objects fetched over plain http.
    v.check(
      (u) => !(isProduction() && u.toLowerCase().startsWith('http:')),
      'publicBaseUrl must be an https URL when NODE_ENV=production (wallets fetch request_uri from it): use the public https URL your TLS-terminating proxy serves, or unset NODE_ENV=production for local development',
    ),
    v.transform((u) => u.replace(/\/+$/, '')),
  ),
  /** Path prefix `fetch()` strips before routing (for example '/authz'); adapters pass relative paths themselves. */
  basePath: v.optional(v.pipe(v.string(), v.regex(/^(\/[^?#]*)?$/, 'basePath must be empty or start with "/"'), v.transform((p) => p.replace(/\/+$/, ''))), ''),
  instances: v.pipe(
    v.array(instanceOptionsSchema),
    v.minLength(1, 'at least one instance is required'),
    v.check((list) => new Set(list.map((i) => i.id)).size === list.length, 'instance ids must be unique'),
  ),
  /** Defaults to memoryStore(): fine for one process; use @vp-authorizer/redis for several. */
  store: v.optional(withMethods<AuthorizerStore>(['create', 'compareAndSet', 'put', 'peek', 'consume'], 'store')),
  /** What `GET /health/ready` waits on besides the store (e.g. `lists.readiness()` of @vp-authorizer/trust-lists). */
  readiness: v.optional(
    v.array(
      v.custom<ReadinessCheck>(
        (x) => isObject(x) && typeof x.name === 'string' && x.name.length > 0 && typeof x.check === 'function',
        'each readiness entry must be { name: string, check(): Promise<{ ready: boolean; detail?: string }> }',
      ),
    ),
    [],
  ),
  /** Clients referenced by `{type: 'instance', resourceId}` in instance policies. */
  clients: v.optional(
    v.object({
      validators: v.optional(v.record(v.string(), withMethods<ValidatorClient>(['validate'], 'validator'))),
      verifiers: v.optional(v.record(v.string(), withMethods<VerifierClient>(['verify'], 'verifier'))),
    }),
    {},
  ),
  /** Defaults to the system clock. */
  clock: v.optional(withMethods<Clock>(['now'], 'clock'), () => ({ now: () => Date.now() })),
  /** A pino-compatible logger, or `'console'` (info and above; `'console:debug'` adds debug lines) to see what happens while developing; silent by default. */
  logger: v.optional(v.union([v.picklist(['console', 'console:debug']), v.custom<Logger>(isObject, 'logger must be an object')], "logger must be a pino-compatible logger object, 'console' or 'console:debug'")),
  /** Status changes (authorization.created, .pending, …); a throwing or rejecting hook is logged, never propagated. */
  /**
   * Tracing and metrics (spans per request and step, decision and latency metrics), e.g.
   * `openTelemetryInstrumentation()` from @vp-authorizer/opentelemetry. Absent: nothing is measured.
   */
  instrumentation: v.optional(withMethods<Instrumentation>(['request', 'step', 'decision'], 'instrumentation')),
  onEvent: v.optional(fn<(event: AuthorizerEvent) => void | Promise<void>>('onEvent')),
  /** Unexpected errors (bugs, not refused requests), after a JSON 500 was answered; `handle()` may override it per call. */
  onError: v.optional(fn<(error: unknown) => void>('onError')),
  /** Request body cap in bytes (default 1 MiB). */
  bodyLimitBytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1024), v.maxValue(50 * 1024 * 1024)), 1024 * 1024),
  /** The Server-Sent Events of GET …/authorizations/{id}/events. */
  eventStreams: v.optional(
    v.object({
      /** Open streams per process (default 1000); one more answers 503 + Retry-After. 0 turns the endpoint off. */
      maxStreams: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 1000),
      /**
       * Open streams of one instance at most; one more answers the same 503. Default: `maxStreams`
       * with one instance configured, half of it (rounded up) with several, so that one relying
       * party cannot take every slot.
       */
      maxStreamsPerInstance: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
      /** Heartbeat comment interval in ms (default 15 000). */
      heartbeatMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(DAY_MS)), 15_000),
      /**
       * Each open stream re-reads its record this often, in ms (default 1000): a change written by
       * another process sharing the store reaches the stream within this delay. One store read per
       * stream per interval.
       */
      pollMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(50), v.maxValue(DAY_MS)), 1000),
    }),
    {},
  ),
  /** How webhooks are delivered (all instances share one bounded queue per process). */
  webhookDelivery: v.optional(
    v.object({
      /**
       * Deliveries held at most, all instances together (waiting, retrying or in flight; default 1000, at most
       * 100 000). One more drops the oldest not in flight of the instance holding the most.
       */
      maxQueued: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000)), 1000),
      /** Requests in flight at most (default 4); while others wait, one instance gets at most half of them, rounded up. */
      maxConcurrent: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(256)), 4),
      /** Attempts per event, the first included, before it is given up (default 8). */
      maxAttempts: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50)), 8),
      /** Deadline of one attempt in ms: resolution, connection, upload and response (default 10 000). */
      timeoutMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(120_000)), 10_000),
      /** Delay before the first retry in ms; doubled per retry, with jitter (default 1000, at most 24 h). */
      initialBackoffMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(DAY_MS)), 1000),
      /** Longest delay between two attempts in ms (default 60 000, at most 24 h). */
      maxBackoffMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(DAY_MS)), 60_000),
      /**
       * The outbound-fetch policy deliveries go through (default `outboundFetchPolicy()`: public
       * https destinations only). Tests pass `outboundFetchPolicy({dangerouslyAllowAnyDestination: true})`
       * to reach a receiver on 127.0.0.1.
       */
      outbound: v.optional(
        v.custom<OutboundFetchPolicy>(
          (x) => isObject(x) && typeof x.lookup === 'function' && typeof x.dangerouslyAllowAnyDestination === 'boolean',
          'webhookDelivery.outbound must be an outbound fetch policy (outboundFetchPolicy({...}))',
        ),
      ),
    }),
    {},
  ),
  /**
   * How long a process's claim on a wallet response holds without being renewed, in ms (default
   * 5 000; renewed every third of it while the validator and verifier work, never past the policy
   * timeouts + margin). When the process dies, a retried response is processed by another process
   * once this has passed.
   */
  claimLeaseMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(60_000)), 5_000),
  /** How often to move overdue authorizations to `expired`, in ms (default 30 000; 0 = only lazily on read). */
  sweepIntervalMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(DAY_MS)), 30_000),
});

type SchemaInstanceOptions = v.InferInput<typeof instanceOptionsSchema>;
type SchemaInstanceConfig = NonNullable<SchemaInstanceOptions['config']>;
type RegisteredClient = { type: 'instance'; resourceId: string; serviceRole?: string };
/**
 * The instance's `validator` is required unless its policy skips validation or names a client
 * registered in `clients` (what createInstanceRuntime checks at construction, said in the types).
 */
type ValidatorChoice =
  | { validator: ValidatorClient }
  | { validator?: undefined; config: SchemaInstanceConfig & { policies: { validate: { skip: true } | { validator: RegisteredClient } } } };
/** The same for `verifier` and `policies.verify`. */
type VerifierChoice =
  | { verifier: VerifierClient }
  | { verifier?: undefined; config: SchemaInstanceConfig & { policies: { verify: { skip: true } | { verifier: RegisteredClient } } } };
/** One instance as `createAuthorizer` accepts it. */
export type InstanceOptions = Omit<SchemaInstanceOptions, 'validator' | 'verifier'> & ValidatorChoice & VerifierChoice;
/** What `createAuthorizer` accepts: the input type of its schema, with the instances' clients required where they are. */
export type AuthorizerOptions = Omit<v.InferInput<typeof authorizerOptionsSchema>, 'instances'> & { instances: InstanceOptions[] };
/** The options after validation, defaults filled in (instance configurations included); internal: no user holds one. */
export type ResolvedAuthorizerOptions = v.InferOutput<typeof authorizerOptionsSchema>;
/** One instance's options after validation; `createInstanceRuntime` turns it into the InstanceRuntime that serves requests. */
export type ResolvedInstanceOptions = v.InferOutput<typeof instanceOptionsSchema>;
