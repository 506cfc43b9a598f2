import { ConfigError, type DidMethod, type DidMethodsConfig, outboundFetchPolicy, type OutboundFetchPolicy, OutboundFetchError } from '@vp-authorizer/core';
import { outboundGet } from '@vp-authorizer/core/internal';
import type { DidDocument } from './did-document.js';
import { DidResolutionError } from './did-resolution-error.js';
import { parseDidUrl } from './parse-did-url.js';

export type EbsiEnvironment = 'conformance.v5' | 'pilot.v5';

export interface HttpDidResolverOptions {
  /** Base URL of a DIF Universal Resolver (HTTP API): documents are read from `{url}/1.0/identifiers/{did}`. */
  url: string;
  /**
   * A resolver per EBSI registry environment. When `methods.ebsi.registry.environment` is set and
   * has an entry here, did:ebsi goes to that base URL; otherwise to `url` with `?environment=…`.
   */
  ebsiEnvironmentUrls?: Partial<Record<EbsiEnvironment, string>>;
  /** One deadline per request (connection, headers and body). Default 5000. */
  timeoutMs?: number;
  /** Largest accepted response body, in bytes. Default 200000. */
  maxBytes?: number;
  /** How long a resolved document is reused. Default 300000 (5 minutes); 0 turns the cache off. */
  cacheTtlMs?: number;
  /** Most documents kept; the least recently used goes first. Default 1000. */
  cacheMaxEntries?: number;
  /** Epoch milliseconds for cache expiry. Default Date.now. */
  clock?: { now(): number };
}

export interface DidDocumentResolveOptions {
  /** The instance's DID-method configuration (seed 2.4): enabled methods, EBSI environment, response shape. */
  didMethods: DidMethodsConfig;
  /** The outbound-fetch policy every request goes through. Default: the strict policy (public https only). */
  outbound?: OutboundFetchPolicy;
  signal?: AbortSignal;
}

/** Resolves a DID to its document through a remote service; errors are DidResolutionError. */
export interface DidDocumentResolver {
  resolve(did: string, options: DidDocumentResolveOptions): Promise<DidDocument>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function checkedBaseUrl(raw: unknown, path: string): string {
  let url: URL;
  try {
    url = new URL(String(raw));
  } catch {
    throw new ConfigError('Invalid httpDidResolver options', [{ path, message: 'must be an absolute http(s) URL' }]);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.search !== '' || url.hash !== '') {
    throw new ConfigError('Invalid httpDidResolver options', [{ path, message: 'must be an http(s) URL without query or fragment' }]);
  }
  return url.href.replace(/\/+$/, '');
}

function checkedInteger(value: number | undefined, fallback: number, min: number, max: number, path: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) throw new ConfigError('Invalid httpDidResolver options', [{ path, message: `must be an integer from ${min} to ${max}` }]);
  return value;
}

/**
 * The document in a resolver answer: a bare DID document, or a DID resolution result
 * (`{didDocument, didResolutionMetadata, didDocumentMetadata}`). Messages never echo the body.
 */
export function documentFromResolverAnswer(answer: unknown, did: string): DidDocument {
  if (!isRecord(answer)) throw new DidResolutionError('did.resolution_failed', 'The DID resolver answered something that is not a JSON object');
  let doc: unknown = answer;
  if ('didResolutionMetadata' in answer || 'didDocument' in answer) {
    const metadata = isRecord(answer.didResolutionMetadata) ? answer.didResolutionMetadata : {};
    if (metadata.error === 'notFound') throw new DidResolutionError('did.not_found', 'The DID resolver does not know the DID');
    if (metadata.error === 'invalidDid') throw new DidResolutionError('did.invalid', 'The DID resolver considers the DID invalid');
    if (metadata.error !== undefined) throw new DidResolutionError('did.resolution_failed', 'The DID resolver reported a resolution error');
    if (isRecord(answer.didDocumentMetadata) && answer.didDocumentMetadata.deactivated === true) throw new DidResolutionError('did.resolution_failed', 'The DID is deactivated');
    doc = answer.didDocument;
  }
  if (!isRecord(doc)) throw new DidResolutionError('did.resolution_failed', 'The DID resolver answer holds no DID document');
  if (doc.id !== did) throw new DidResolutionError('did.resolution_failed', 'The resolved DID document id does not match the DID');
  for (const key of ['verificationMethod', 'authentication', 'assertionMethod'] as const) {
    if (doc[key] !== undefined && !Array.isArray(doc[key])) throw new DidResolutionError('did.resolution_failed', `The resolved DID document's ${key} is not an array`);
  }
  return doc as DidDocument;
}

/**
 * A DID resolver client for the DIF Universal Resolver HTTP API (`GET {url}/1.0/identifiers/{did}`),
 * honouring the DID-method configuration: a disabled method is refused before any request, the
 * Accept header is `response.contentType`, and did:ebsi carries its registry environment. Requests
 * go through the outbound-fetch policy (no redirects, bounded size and time); successful
 * resolutions are cached per outbound policy, request URL and Accept (so per DID) for `cacheTtlMs`.
 * A resolver shared by verifiers with different policies never answers one from what another's
 * policy allowed.
 */
export function httpDidResolver(options: HttpDidResolverOptions): DidDocumentResolver {
  const base = checkedBaseUrl(options.url, 'url');
  const ebsiUrls = Object.fromEntries(Object.entries(options.ebsiEnvironmentUrls ?? {}).map(([env, url]) => [env, checkedBaseUrl(url, `ebsiEnvironmentUrls.${env}`)]));
  const timeoutMs = checkedInteger(options.timeoutMs, 5_000, 1, 60_000, 'timeoutMs');
  const maxBytes = checkedInteger(options.maxBytes, 200_000, 1, 100_000_000, 'maxBytes');
  const ttlMs = checkedInteger(options.cacheTtlMs, 300_000, 0, 86_400_000, 'cacheTtlMs');
  const maxEntries = checkedInteger(options.cacheMaxEntries, 1_000, 1, 1_000_000, 'cacheMaxEntries');
  const clock = options.clock ?? { now: () => Date.now() };
  const strict = outboundFetchPolicy();
  // Map iteration order is insertion order: re-inserting on a hit makes the first key the least recently used.
  const cache = new Map<string, { doc: DidDocument; expires: number }>();
  // Each policy object gets a number for the cache key (the object itself is the policy: two with
  // the same settings are kept apart too, which costs a request, never a wrong answer).
  const policyIds = new WeakMap<OutboundFetchPolicy, number>();
  let nextPolicyId = 0;
  const policyId = (policy: OutboundFetchPolicy): number => {
    let id = policyIds.get(policy);
    if (id === undefined) policyIds.set(policy, (id = nextPolicyId++));
    return id;
  };

  function requestUrl(did: string, method: string, didMethods: DidMethodsConfig): string {
    const environment = method === 'ebsi' ? didMethods.methods.ebsi.registry?.environment : undefined;
    const root = environment !== undefined && ebsiUrls[environment] !== undefined ? ebsiUrls[environment] : base;
    const query = environment !== undefined && ebsiUrls[environment] === undefined ? `?environment=${encodeURIComponent(environment)}` : '';
    return `${root}/1.0/identifiers/${encodeURIComponent(did)}${query}`;
  }

  return {
    async resolve(didUrl, { didMethods, outbound = strict, signal = new AbortController().signal }) {
      const { did, method } = parseDidUrl(didUrl);
      if (!didMethods.methods[method as DidMethod]?.enabled) throw new DidResolutionError('did.method_disabled', `The DID method "${method}" is disabled in the DID-method configuration`);
      const url = requestUrl(did, method, didMethods);
      const accept = didMethods.response.contentType;
      const key = `${policyId(outbound)} ${accept} ${url}`;
      const cached = cache.get(key);
      if (cached !== undefined) {
        cache.delete(key);
        if (cached.expires > clock.now()) {
          cache.set(key, cached);
          return cached.doc;
        }
      }
      let body: Uint8Array;
      try {
        ({ body } = await outboundGet(url, { accept: `${accept}, application/ld+json;q=0.9, application/json;q=0.8`, timeoutMs, maxBytes, signal }, outbound));
      } catch (error) {
        if (!(error instanceof OutboundFetchError)) throw error;
        if (error.reason === 'http_status' && error.status === 404) throw new DidResolutionError('did.not_found', 'The DID resolver does not know the DID');
        // The reason is fixed text (timeout, too large, redirect…); the resolver's body is never read.
        throw new DidResolutionError('did.resolution_failed', `The DID resolver could not be used: ${error.message}`);
      }
      let answer: unknown;
      try {
        answer = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
      } catch {
        throw new DidResolutionError('did.resolution_failed', 'The DID resolver answer is not JSON');
      }
      const doc = documentFromResolverAnswer(answer, did);
      if (ttlMs > 0) {
        cache.set(key, { doc, expires: clock.now() + ttlMs });
        while (cache.size > maxEntries) cache.delete(cache.keys().next().value!);
      }
      return doc;
    },
  };
}
