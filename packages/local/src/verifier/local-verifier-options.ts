import { ConfigError, outboundFetchPolicy, DEFAULT_MAX_HEADER_BYTES, type OutboundFetchPolicy, type OutboundLookup } from '@vp-authorizer/core';
import * as v from 'valibot';
import type { DidDocumentResolver } from '../did/http-did-resolver.js';
import { isIssuerAnchorSource, type IssuerAnchorSource } from '../x509/issuer-anchors.js';
import { parseTrustAnchors } from '../x509/trust-anchors.js';

/** JOSE algorithms the local verifier can check. HAIP narrows this to ES256. */
export const SUPPORTED_ALGS = ['ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'] as const;
export type SupportedAlg = (typeof SUPPORTED_ALGS)[number];

const ms = (max: number, fallback: number) => v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(max)), fallback);
const positive = (max: number, fallback: number) => v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(max)), fallback);

export const localVerifierOptionsSchema = v.strictObject({
  /** PEM trust anchors: IACAs (mdoc) and SD-JWT / status-list issuer roots. */
  trustAnchors: v.array(v.pipe(v.string(), v.nonEmpty('a trust anchor must be a PEM certificate'))),
  /**
   * More issuer roots, chosen per chain and per credential type: signed trusted lists, e.g.
   * `trustLists()` of @vp-authorizer/trust-lists. Used beside `trustAnchors` (which may then be empty).
   */
  issuerAnchors: v.optional(v.custom<IssuerAnchorSource>(isIssuerAnchorSource, 'issuerAnchors must be an object with an issuerAnchors() method, e.g. trustLists({ sources, signers })')),
  clock: v.optional(v.custom<{ now(): number }>((c) => typeof (c as { now?: unknown } | null)?.now === 'function', 'clock must be an object with a now() method returning epoch milliseconds')),
  /** Tolerance for nbf/exp/iat comparisons. */
  clockSkewMs: ms(86_400_000, 300_000),
  /** Oldest accepted KB-JWT / ID token `iat` (plus skew). */
  kbJwtMaxAgeMs: positive(86_400_000, 300_000),
  statusList: v.optional(
    v.strictObject({
      enabled: v.optional(v.boolean(), true),
      /** One deadline per fetch: resolution, connection, headers and body. */
      timeoutMs: positive(60_000, 3_000),
      maxBytes: positive(100_000_000, 1_000_000),
    }),
    {},
  ),
  /** did:web document fetch limits (timeoutMs: one deadline for resolution, connection, headers and body). */
  didWeb: v.optional(
    v.strictObject({
      timeoutMs: positive(60_000, 3_000),
      maxBytes: positive(100_000_000, 200_000),
    }),
    {},
  ),
  /**
   * Resolves every enabled DID method the verifier cannot resolve itself (all but did:jwk, did:key
   * and did:web), e.g. `httpDidResolver({ url })`. Its requests go through `outboundFetch` below.
   * Without one, such DIDs fail with did.needs_remote_resolver.
   */
  didResolver: v.optional(v.custom<DidDocumentResolver>((r) => typeof (r as { resolve?: unknown } | null)?.resolve === 'function', 'didResolver must be an object with a resolve() method, e.g. httpDidResolver({ url })')),
  /**
   * The policy for every fetch a wallet can trigger (did:web, status lists, the DID resolver): https on port 443 to
   * a DNS name whose every resolved address is public, connected to at the address that was
   * checked, no redirects, bounded headers, body and time (timeoutMs / maxBytes above).
   */
  outboundFetch: v.optional(
    v.strictObject({
      /** Name resolution (`dns.lookup(host, {all: true})` shape, returning a promise). Default: the system resolver. */
      lookup: v.optional(v.custom<OutboundLookup>((f) => typeof f === 'function', 'outboundFetch.lookup must be a function')),
      /** Largest accepted response status line + headers, in bytes. */
      maxHeaderBytes: positive(1_048_576, DEFAULT_MAX_HEADER_BYTES),
      /**
       * DISABLES the destination checks of the policy: http:, any port, IP literals, localhost and
       * names resolving to private, loopback, link-local or metadata addresses are all fetched. A
       * wallet can then make the verifier request internal URLs. Tests and local development only.
       * Redirect refusal and the size and time bounds still apply. Default false.
       */
      dangerouslyAllowAnyDestination: v.optional(v.boolean(), false),
    }),
    {},
  ),
  /**
   * Your own transport for those fetches (an egress proxy client, say). The policy still refuses
   * non-https URLs, explicit ports, IP literals and localhost, never follows redirects and bounds
   * size and time, but it CANNOT check or pin the addresses your fetch resolves: a name resolving
   * to an internal address is fetched unless your fetch refuses it. Default: the policy's own
   * node:https transport (resolves once, checks every address, connects to the checked one).
   */
  fetch: v.optional(v.custom<typeof fetch>((f) => typeof f === 'function', 'fetch must be a function')),
  allowedAlgs: v.optional(v.pipe(v.array(v.picklist(SUPPORTED_ALGS, `allowedAlgs entries must be one of ${SUPPORTED_ALGS.join(', ')}`)), v.minLength(1, 'allowedAlgs must not be empty')), [
    'ES256',
    'ES384',
    'ES512',
    'EdDSA',
  ]),
});

export type LocalVerifierOptions = v.InferInput<typeof localVerifierOptionsSchema>;
export type ResolvedLocalVerifierOptions = v.InferOutput<typeof localVerifierOptionsSchema> & { clock: { now(): number }; outboundPolicy: OutboundFetchPolicy };

/** Validates options once at construction; throws ConfigError with readable issues (including bad PEM). */
export function resolveLocalVerifierOptions(options: LocalVerifierOptions): ResolvedLocalVerifierOptions {
  const result = v.safeParse(localVerifierOptionsSchema, options);
  if (!result.success) {
    throw new ConfigError(
      'Invalid localVerifier options',
      result.issues.map((issue) => ({ path: v.getDotPath(issue) ?? '', message: issue.message })),
    );
  }
  const resolved = result.output;
  resolved.trustAnchors.forEach((pem, index) => {
    try {
      parseTrustAnchors([pem]);
    } catch (error) {
      throw new ConfigError('Invalid localVerifier options', [{ path: `trustAnchors.${index}`, message: (error as Error).message.replace(/^Trust anchor \d+ /, 'trust anchor ') }]);
    }
  });
  const { lookup, maxHeaderBytes, dangerouslyAllowAnyDestination } = resolved.outboundFetch;
  const outboundPolicy = outboundFetchPolicy({ maxHeaderBytes, dangerouslyAllowAnyDestination, ...(lookup ? { lookup } : {}), ...(resolved.fetch ? { fetch: resolved.fetch } : {}) });
  // Frozen: the anchors are fixed from here on, so chain verdict keys can digest them once.
  const trustAnchors = Object.freeze([...resolved.trustAnchors]) as string[];
  return { ...resolved, trustAnchors, clock: resolved.clock ?? { now: () => Date.now() }, outboundPolicy };
}
