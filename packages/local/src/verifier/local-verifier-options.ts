import { ConfigError, outboundFetchPolicy, type OutboundFetchPolicy, type OutboundLookup } from '@vp-authorizer/core';
import { DEFAULT_MAX_HEADER_BYTES } from '@vp-authorizer/core/internal';
import * as v from 'valibot';
import { configuredContexts } from '../data-integrity/configured-contexts.js';
import { DATA_INTEGRITY_CRYPTOSUITES } from '../data-integrity/cryptosuites.js';
import { DEFAULT_DOCUMENT_LIMITS } from '../data-integrity/document-limits.js';
import type { DidDocumentResolver } from '../did/http-did-resolver.js';
import { isIssuerAnchorSource, type IssuerAnchorSource } from '../x509/issuer-anchors.js';
import { parseTrustAnchors } from '../x509/trust-anchors.js';

/** JOSE algorithms the local verifier can check. HAIP narrows this to ES256. */
export const SUPPORTED_ALGS = ['ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'] as const;
export type SupportedAlg = (typeof SUPPORTED_ALGS)[number];

const ms = (max: number, fallback: number) => v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(max)), fallback);
const positive = (max: number, fallback: number) => v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(max)), fallback);

/**
 * The numeric `dataIntegrity` options: the largest value accepted (the smallest is 1) and the
 * default. Configuration loaders check against these, so a bound is stated once.
 */
export const DATA_INTEGRITY_LIMITS = Object.freeze({
  maxDepth: Object.freeze({ max: 64, default: DEFAULT_DOCUMENT_LIMITS.maxDepth }),
  maxValues: Object.freeze({ max: 100_000, default: DEFAULT_DOCUMENT_LIMITS.maxValues }),
  maxArrayLength: Object.freeze({ max: 10_000, default: DEFAULT_DOCUMENT_LIMITS.maxArrayLength }),
  maxBlankNodes: Object.freeze({ max: 10_000, default: DEFAULT_DOCUMENT_LIMITS.maxBlankNodes }),
  maxEmbeddedContexts: Object.freeze({ max: 10_000, default: DEFAULT_DOCUMENT_LIMITS.maxEmbeddedContexts }),
  maxTermDefinitions: Object.freeze({ max: 100_000, default: DEFAULT_DOCUMENT_LIMITS.maxTermDefinitions }),
  canonicalizationTimeoutMs: Object.freeze({ max: 10_000, default: 1_000 }),
});
export type DataIntegrityLimit = keyof typeof DATA_INTEGRITY_LIMITS;
const limit = (name: DataIntegrityLimit) => positive(DATA_INTEGRITY_LIMITS[name].max, DATA_INTEGRITY_LIMITS[name].default);

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
  /**
   * W3C Data Integrity (`ldp_vc` / `ldp_vp`). Contexts come from the bundled set (VCDM 1.1 and
   * 2.0, Data Integrity, Multikey, Bitstring Status List, StatusList2021, …) plus `contexts`;
   * any other context is refused, never fetched.
   */
  dataIntegrity: v.optional(
    v.strictObject({
      /**
       * Default true: the Data Integrity libraries load in the background when the verifier is
       * built (loading them costs the event loop several hundred milliseconds once). False: ldp
       * presentations fail with format.unsupported and the libraries are never loaded.
       */
      enabled: v.optional(v.boolean(), true),
      /** More JSON-LD contexts by URL: the parsed context document (an object with `@context`). */
      contexts: v.optional(
        v.record(
          v.pipe(v.string(), v.url('a context URL must be an absolute URL')),
          v.custom<Record<string, unknown>>((d) => typeof d === 'object' && d !== null && !Array.isArray(d) && '@context' in d, 'a context must be a JSON-LD context document: an object with an @context member'),
        ),
        {},
      ),
      /** The cryptosuites accepted; default: every one verified here. */
      cryptosuites: v.optional(
        v.pipe(v.array(v.picklist(DATA_INTEGRITY_CRYPTOSUITES, `dataIntegrity.cryptosuites entries must be one of ${DATA_INTEGRITY_CRYPTOSUITES.join(', ')}`)), v.minLength(1, 'dataIntegrity.cryptosuites must not be empty')),
        [...DATA_INTEGRITY_CRYPTOSUITES],
      ),
      /** Deepest nesting of a presentation (objects and arrays). */
      maxDepth: limit('maxDepth'),
      /** Most JSON values in one presentation; bounds JSON-LD expansion and canonicalization. */
      maxValues: limit('maxValues'),
      /** Longest array in a presentation (JSON-LD expansion cost grows with its square). */
      maxArrayLength: limit('maxArrayLength'),
      /** Most nodes without an IRI (blank nodes) in a presentation; bounds RDF canonicalization. */
      maxBlankNodes: limit('maxBlankNodes'),
      /** Most contexts a presentation defines itself (embedded, scoped, `@import`); each is processed over the whole active context. */
      maxEmbeddedContexts: limit('maxEmbeddedContexts'),
      /** Most term definitions in those contexts; every later context processed copies them. */
      maxTermDefinitions: limit('maxTermDefinitions'),
      /** Deadline of one RDFC-1.0 canonicalization, beside its work bound. */
      canonicalizationTimeoutMs: limit('canonicalizationTimeoutMs'),
    }),
    {},
  ),
  allowedAlgs: v.optional(v.pipe(v.array(v.picklist(SUPPORTED_ALGS, `allowedAlgs entries must be one of ${SUPPORTED_ALGS.join(', ')}`)), v.minLength(1, 'allowedAlgs must not be empty')), [
    'ES256',
    'ES384',
    'ES512',
    'EdDSA',
  ]),
});

export type LocalVerifierOptions = v.InferInput<typeof localVerifierOptionsSchema>;
type ParsedOptions = v.InferOutput<typeof localVerifierOptionsSchema>;
export type ResolvedLocalVerifierOptions = Omit<ParsedOptions, 'dataIntegrity'> & {
  clock: { now(): number };
  outboundPolicy: OutboundFetchPolicy;
  dataIntegrity: ParsedOptions['dataIntegrity'] & { contextMap: ReadonlyMap<string, unknown>; cryptosuiteSet: ReadonlySet<string> };
};

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
  const dataIntegrity = { ...resolved.dataIntegrity, contextMap: configuredContexts(resolved.dataIntegrity.contexts, { owner: 'localVerifier', path: 'dataIntegrity.contexts' }), cryptosuiteSet: new Set<string>(resolved.dataIntegrity.cryptosuites) };
  return { ...resolved, trustAnchors, clock: resolved.clock ?? { now: () => Date.now() }, outboundPolicy, dataIntegrity };
}
