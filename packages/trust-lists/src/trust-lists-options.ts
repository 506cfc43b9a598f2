import { ConfigError, outboundFetchPolicy, type OutboundFetchPolicy, type OutboundLookup } from '@vp-authorizer/core';
import { DEFAULT_MAX_HEADER_BYTES } from '@vp-authorizer/core/internal';
import * as v from 'valibot';
import { DEFAULT_XML_BOUNDS, type XmlBounds } from './bounded-xml.js';
import { certificatesFromPem, type ListedCertificate } from './listed-certificate.js';
import { isTrustSourceKind, TRUST_SOURCE_KINDS, type TrustSourceKindName } from './trust-source-kinds.js';
import { defaultVouching, type Vouching } from './vouching.js';

const HOUR = 3_600_000;
const positive = (max: number, fallback: number) => v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(max)), fallback);
const kinds = Object.keys(TRUST_SOURCE_KINDS).join(', ');

const sourceSchema = v.union(
  [
    v.pipe(v.string(), v.nonEmpty()),
    v.strictObject({
      /** An https URL (fetched through the outbound-fetch policy) or a file path. */
      location: v.pipe(v.string(), v.nonEmpty()),
      /** The kind; detected from the document when omitted. */
      kind: v.optional(v.picklist(Object.keys(TRUST_SOURCE_KINDS) as TrustSourceKindName[], `kind must be one of ${kinds}`)),
    }),
  ],
  `a source is a location ("https://…", a file path, optionally prefixed "lotl:", "tl:", "lote:" or "vical:") or {location, kind}`,
);

export const trustListsOptionsSchema = v.strictObject({
  sources: v.pipe(v.array(sourceSchema), v.minLength(1, 'sources must name at least one trusted list')),
  /** PEM texts of the certificates accepted as signers of the configured lists (LoTL, lists loaded directly, LoTEs, VICALs). Lists a LoTL points to are checked against the certificates the LoTL gives for them instead. */
  signers: v.pipe(v.array(v.pipe(v.string(), v.nonEmpty())), v.minLength(1, 'signers must hold at least one PEM certificate: a list is only as trustworthy as the key that signed it')),
  /** Which listed service types may vouch for a credential type (default: defaultVouching). */
  vouching: v.optional(v.custom<Vouching>((f) => typeof f === 'function', 'vouching must be a function')),
  /**
   * Which time a service's status is read at: 'current' (default) refuses a credential once its
   * issuer's service is withdrawn; 'issuance' reads the status at the credential's own issuance
   * time, as the list's history allows (a withdrawn key can then still vouch for credentials that
   * claim an earlier issuance time: choose it only where that claim is trusted).
   */
  judgeBy: v.optional(v.picklist(['current', 'issuance']), 'current'),
  /** How long past its NextUpdate a list's anchors stay in use while a fresh one cannot be loaded; after that, fail closed. */
  graceMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(30 * 24 * HOUR)), 24 * HOUR),
  /** Age after which a list that gives no NextUpdate (a VICAL or LoTE may not) counts as stale. */
  maxAgeWithoutNextUpdateMs: positive(365 * 24 * HOUR, 7 * 24 * HOUR),
  refresh: v.optional(
    v.strictObject({
      /** Background refreshes happen at NextUpdate, but never sooner than this after a load… */
      minIntervalMs: positive(7 * 24 * HOUR, HOUR),
      /** …and never later than this. */
      maxIntervalMs: positive(30 * 24 * HOUR, 24 * HOUR),
      /** First retry after a failed load; doubles up to maxIntervalMs. */
      retryMs: positive(24 * HOUR, 5 * 60_000),
    }),
    {},
  ),
  /** One deadline and one size bound per fetched or read document. */
  fetch: v.optional(v.strictObject({ timeoutMs: positive(300_000, 20_000), maxBytes: positive(256 * 1024 * 1024, 16 * 1024 * 1024) }), {}),
  /** The outbound-fetch policy for list URLs (as for the local verifier). */
  outboundFetch: v.optional(
    v.strictObject({
      lookup: v.optional(v.custom<OutboundLookup>((f) => typeof f === 'function', 'outboundFetch.lookup must be a function')),
      maxHeaderBytes: positive(1_048_576, DEFAULT_MAX_HEADER_BYTES),
      /** DISABLES the destination checks (http, any port, private addresses). Tests and local development only. */
      dangerouslyAllowAnyDestination: v.optional(v.boolean(), false),
    }),
    {},
  ),
  /** Most pointers of a LoTL followed (today's EU LoTL has 32 XML lists). */
  maxPointers: positive(1000, 64),
  /** Follow only the LoTL pointers of these territories (ISO 3166 codes, e.g. ["DE", "FR"]); all when omitted. */
  territories: v.optional(v.array(v.pipe(v.string(), v.regex(/^[A-Z]{2}$/, 'territories are two-letter codes, e.g. "DE"')))),
  xmlBounds: v.optional(
    v.strictObject({
      maxDepth: v.optional(v.pipe(v.number(), v.integer(), v.minValue(8), v.maxValue(256))),
      maxNodes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1000))),
      maxAttributeLength: v.optional(v.pipe(v.number(), v.integer(), v.minValue(256))),
    }),
    {},
  ),
  clock: v.optional(v.custom<{ now(): number }>((c) => typeof (c as { now?: unknown } | null)?.now === 'function', 'clock must be an object with a now() method returning epoch milliseconds')),
  /** Called for loads, failures and staleness (for logs and metrics). Must not throw. */
  onEvent: v.optional(v.custom<(event: TrustListEvent) => void>((f) => typeof f === 'function', 'onEvent must be a function')),
  /** A caller's own transport for list URLs; the policy's checks that need no network still apply. */
  fetchImpl: v.optional(v.custom<typeof fetch>((f) => typeof f === 'function', 'fetchImpl must be a function')),
  /** @internal CA certificates (PEM) trusted for TLS instead of the system roots: tests only. */
  tlsCa: v.optional(v.array(v.string())),
});

export type TrustListsOptions = v.InferInput<typeof trustListsOptionsSchema>;

/** What happened to a source. `source` is its location; codes are the stable trust_list.* codes. */
export type TrustListEvent =
  | { type: 'loaded'; source: string; kind: TrustSourceKindName; sequence?: number; nextUpdate?: number; anchors: number; durationMs: number }
  | { type: 'load_failed'; source: string; kind?: TrustSourceKindName; code: string; message: string; keptLastGood: boolean }
  | { type: 'stale'; source: string; nextUpdate?: number };

export interface ResolvedSource {
  location: string;
  kind?: TrustSourceKindName;
}

export interface ResolvedTrustListsOptions {
  sources: ResolvedSource[];
  signers: ListedCertificate[];
  vouching: Vouching;
  judgeBy: 'current' | 'issuance';
  graceMs: number;
  maxAgeWithoutNextUpdateMs: number;
  refresh: { minIntervalMs: number; maxIntervalMs: number; retryMs: number };
  fetch: { timeoutMs: number; maxBytes: number };
  policy: OutboundFetchPolicy;
  maxPointers: number;
  territories?: ReadonlySet<string>;
  xmlBounds: XmlBounds;
  clock: { now(): number };
  onEvent: (event: TrustListEvent) => void;
}

/** `lotl:https://…` → {kind: 'lotl', location}; a URL scheme or a bare path stays a location. */
function parseSource(source: string | { location: string; kind?: TrustSourceKindName }): ResolvedSource {
  if (typeof source !== 'string') return { location: source.location, ...(source.kind ? { kind: source.kind } : {}) };
  const prefix = /^([a-z]+):(.+)$/.exec(source);
  if (prefix && isTrustSourceKind(prefix[1]!) && !prefix[2]!.startsWith('//')) return { kind: prefix[1] as TrustSourceKindName, location: prefix[2]! };
  return { location: source };
}

/** Validates once at construction; ConfigError names the option and the fix. */
export function resolveTrustListsOptions(options: TrustListsOptions): ResolvedTrustListsOptions {
  const result = v.safeParse(trustListsOptionsSchema, options);
  if (!result.success) throw new ConfigError('Invalid trustLists options', result.issues.map((issue) => ({ path: v.getDotPath(issue) ?? '', message: issue.message })));
  const o = result.output;
  const signers = o.signers.flatMap((pem, i) => {
    try {
      return certificatesFromPem(pem, `signers.${i}`);
    } catch (error) {
      throw new ConfigError('Invalid trustLists options', [{ path: `signers.${i}`, message: (error as Error).message }]);
    }
  });
  const sources = o.sources.map(parseSource);
  sources.forEach((s, i) => {
    if (/^http:\/\//i.test(s.location) && !o.outboundFetch.dangerouslyAllowAnyDestination) {
      throw new ConfigError('Invalid trustLists options', [{ path: `sources.${i}`, message: 'trusted lists are fetched over https only (or read from a file path)' }]);
    }
  });
  if (o.refresh.minIntervalMs > o.refresh.maxIntervalMs) throw new ConfigError('Invalid trustLists options', [{ path: 'refresh', message: 'minIntervalMs must not exceed maxIntervalMs' }]);
  const { lookup, maxHeaderBytes, dangerouslyAllowAnyDestination } = o.outboundFetch;
  const policy = outboundFetchPolicy({ maxHeaderBytes, dangerouslyAllowAnyDestination, ...(lookup ? { lookup } : {}), ...(o.fetchImpl ? { fetch: o.fetchImpl } : {}), ...(o.tlsCa ? { ca: o.tlsCa } : {}) });
  const onEvent = o.onEvent;
  return {
    sources,
    signers,
    vouching: o.vouching ?? defaultVouching,
    judgeBy: o.judgeBy,
    graceMs: o.graceMs,
    maxAgeWithoutNextUpdateMs: o.maxAgeWithoutNextUpdateMs,
    refresh: o.refresh,
    fetch: o.fetch,
    policy,
    maxPointers: o.maxPointers,
    ...(o.territories ? { territories: new Set(o.territories) } : {}),
    xmlBounds: { ...DEFAULT_XML_BOUNDS, maxBytes: o.fetch.maxBytes, ...definedOnly(o.xmlBounds) },
    clock: o.clock ?? { now: () => Date.now() },
    onEvent: (event) => {
      try {
        onEvent?.(event);
      } catch {
        // A listener's failure must not stop a load or a refresh.
      }
    },
  };
}

const definedOnly = <T extends object>(value: T): Partial<T> => Object.fromEntries(Object.entries(value).filter(([, x]) => x !== undefined)) as Partial<T>;
