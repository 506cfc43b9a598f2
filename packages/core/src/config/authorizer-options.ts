import * as v from 'valibot';
import type { ValidatorClient } from '../clients/validator-client.js';
import type { VerifierClient } from '../clients/verifier-client.js';
import type { AuthorizerEvent } from '../events/authorizer-event.js';
import type { Logger } from '../events/logger.js';
import type { AuthorizationStore, CodeStore } from '../store/authorization-store.js';
import type { SigningInput } from '../request/signing-material.js';
import type { InstanceConfigInput } from './instance-config.js';

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export interface InstanceOptions {
  /** Scopes every record; another instance asking for it gets 404. */
  id: string;
  /** Bearer keys accepted for relying-party routes. Kept only as SHA-256 digests. */
  apiKeys: string[];
  /** Instance configuration (cors, policies, openId4vp, didMethods), validated at construction. */
  config?: InstanceConfigInput;
  /** Request-object signing key and certificate chain (see generateDevSigningKey for dev). */
  signing: SigningInput;
  /** The `managed` validator (policies.validate.validator = {type: 'managed'}). */
  validator?: ValidatorClient;
  /** The `managed` verifier. */
  verifier?: VerifierClient;
}

export interface AuthorizerOptions {
  /** Absolute public URL where the authorizer is mounted (used for response_uri, request_uri). Never taken from request headers. */
  publicBaseUrl: string;
  /** Path prefix `fetch()` strips before routing (for example '/authz'); adapters pass relative paths themselves. */
  basePath?: string;
  instances: InstanceOptions[];
  /** Defaults to memoryStore(): fine for one process; use @vp-authorizer/redis for several. */
  store?: AuthorizationStore & CodeStore;
  /** Clients referenced by `{type: 'instance', resourceId}` in instance policies. */
  clients?: { validators?: Record<string, ValidatorClient>; verifiers?: Record<string, VerifierClient> };
  clock?: Clock;
  logger?: Logger;
  onEvent?: (event: AuthorizerEvent) => void | Promise<void>;
  /** Unexpected errors (bugs, not refused requests), after a JSON 500 was answered; `handle()` may override it per call. */
  onError?: (error: unknown) => void;
  /** Request body cap in bytes (default 1 MiB). */
  bodyLimitBytes?: number;
  /** How often to move overdue authorizations to `expired`, in ms (default 30 000; 0 = only lazily on read). */
  sweepIntervalMs?: number;
}

const fn = (what: string) => v.custom<(...args: never[]) => unknown>((x) => typeof x === 'function', `${what} must be a function`);
const clientWith = (method: string, what: string) =>
  v.custom<object>((x) => typeof x === 'object' && x !== null && typeof (x as Record<string, unknown>)[method] === 'function', `${what} must have a ${method}() method`);

const instanceSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.-]{1,64}$/, 'instance id must be 1-64 characters of A-Z a-z 0-9 _ . -')),
  apiKeys: v.pipe(v.array(v.pipe(v.string(), v.minLength(8, 'API keys must be at least 8 characters'))), v.minLength(1, 'at least one API key is required')),
  config: v.optional(v.unknown()),
  signing: v.unknown(),
  validator: v.optional(clientWith('validate', 'validator')),
  verifier: v.optional(v.intersect([clientWith('verify', 'verifier'), clientWith('verifyIdToken', 'verifier')])),
});

export const authorizerOptionsSchema = v.object({
  publicBaseUrl: v.pipe(
    v.string(),
    v.check((u) => {
      if (!URL.canParse(u)) return false;
      const url = new URL(u);
      return /^https?:$/.test(url.protocol) && !url.search && !url.hash;
    }, 'publicBaseUrl must be an absolute http(s) URL without query or fragment'),
    v.transform((u) => u.replace(/\/+$/, '')),
  ),
  basePath: v.optional(v.pipe(v.string(), v.regex(/^(\/[^?#]*)?$/, 'basePath must be empty or start with "/"'), v.transform((p) => p.replace(/\/+$/, ''))), ''),
  instances: v.pipe(
    v.array(instanceSchema),
    v.minLength(1, 'at least one instance is required'),
    v.check((list) => new Set(list.map((i) => i.id)).size === list.length, 'instance ids must be unique'),
  ),
  store: v.optional(v.intersect([clientWith('create', 'store'), clientWith('compareAndSet', 'store'), clientWith('put', 'store'), clientWith('peek', 'store'), clientWith('consume', 'store')])),
  clients: v.optional(v.object({ validators: v.optional(v.record(v.string(), clientWith('validate', 'validator'))), verifiers: v.optional(v.record(v.string(), clientWith('verify', 'verifier'))) })),
  clock: v.optional(clientWith('now', 'clock')),
  logger: v.optional(v.custom<object>((x) => typeof x === 'object' && x !== null, 'logger must be an object')),
  onEvent: v.optional(fn('onEvent')),
  onError: v.optional(fn('onError')),
  bodyLimitBytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1024), v.maxValue(50 * 1024 * 1024)), 1024 * 1024),
  sweepIntervalMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 30_000),
});
