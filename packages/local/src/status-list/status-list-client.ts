import { compactVerify, decodeProtectedHeader } from 'jose';
import { boundedFetch, BoundedFetchError } from '../verifier/bounded-fetch.js';
import { verifyCertificateChain } from '../x509/verify-certificate-chain.js';
import { decodeStatusList, readStatusValue, type StatusList } from './read-status-value.js';
import { StatusListError } from './status-list-error.js';

export interface StatusListClientOptions {
  fetch: typeof fetch;
  timeoutMs: number;
  maxBytes: number;
  trustAnchors: readonly string[];
  clockSkewMs: number;
  /** Upper bound of cached lists (oldest evicted first). */
  maxEntries?: number;
}

export interface StatusLookup {
  uri: string;
  idx: number;
  now: number;
  allowedAlgs: readonly string[];
  signal: AbortSignal;
}

interface CacheEntry {
  list: StatusList;
  expiresAt: number;
}

const unavailable = (message: string) => new StatusListError('status.unavailable', message);

/**
 * Fetches, verifies and caches Status List Tokens (Token Status List -14, JWT form). A token is
 * trusted when it has `typ: statuslist+jwt`, an x5c chain to the configured anchors, a valid
 * signature, `sub` equal to the URI and an unexpired `exp`. Cached until `exp` (or `iat + ttl`).
 */
export class StatusListClient {
  readonly #cache = new Map<string, CacheEntry>();
  constructor(private readonly options: StatusListClientOptions) {}

  async status(lookup: StatusLookup): Promise<number> {
    return readStatusValue(await this.#list(lookup), lookup.idx);
  }

  async #list(lookup: StatusLookup): Promise<StatusList> {
    const hit = this.#cache.get(lookup.uri);
    if (hit && hit.expiresAt > lookup.now) return hit.list;
    this.#cache.delete(lookup.uri);
    const { list, expiresAt } = await this.#fetchAndVerify(lookup);
    if (expiresAt !== undefined && expiresAt > lookup.now) {
      if (this.#cache.size >= (this.options.maxEntries ?? 1_000)) this.#cache.delete(this.#cache.keys().next().value!);
      this.#cache.set(lookup.uri, { list, expiresAt });
    }
    return list;
  }

  async #fetchAndVerify({ uri, now, allowedAlgs, signal }: StatusLookup): Promise<{ list: StatusList; expiresAt?: number }> {
    if (!/^https?:\/\//i.test(uri)) throw unavailable('The status list URI is not an http(s) URL');
    let body: Uint8Array;
    try {
      ({ body } = await boundedFetch(this.options.fetch, uri, { accept: 'application/statuslist+jwt', timeoutMs: this.options.timeoutMs, maxBytes: this.options.maxBytes, signal }));
    } catch (error) {
      if (error instanceof BoundedFetchError) throw unavailable(`The status list could not be fetched: ${error.message}`);
      throw error;
    }
    const jwt = new TextDecoder().decode(body).trim();
    let header: Record<string, unknown>;
    try {
      header = decodeProtectedHeader(jwt) as Record<string, unknown>;
    } catch {
      throw unavailable('The status list response is not a JWT');
    }
    if (header.typ !== 'statuslist+jwt') throw unavailable('The status list token does not have typ statuslist+jwt');
    if (typeof header.alg !== 'string' || !allowedAlgs.includes(header.alg)) throw unavailable('The status list token uses an algorithm that is not allowed');
    if (!Array.isArray(header.x5c) || !header.x5c.every((c) => typeof c === 'string')) throw unavailable('The status list token has no x5c certificate chain');
    const chain = await verifyCertificateChain(header.x5c as string[], this.options.trustAnchors, new Date(now));
    if (!chain.valid) throw unavailable(`The status list token certificate is not trusted: ${chain.detail}`);
    let payload: Record<string, unknown>;
    try {
      const verified = await compactVerify(jwt, chain.leaf.node.publicKey, { algorithms: [header.alg] });
      payload = JSON.parse(new TextDecoder().decode(verified.payload)) as Record<string, unknown>;
    } catch {
      throw unavailable('The status list token signature is invalid');
    }
    if (payload.sub !== uri) throw unavailable('The status list token sub does not match the status list URI');
    if (typeof payload.iat !== 'number') throw unavailable('The status list token has no iat');
    const skew = this.options.clockSkewMs;
    if (payload.exp !== undefined && (typeof payload.exp !== 'number' || payload.exp * 1000 + skew <= now)) throw unavailable('The status list token has expired');
    const list = decodeStatusList(payload.status_list);
    const ttl = typeof payload.ttl === 'number' && payload.ttl > 0 ? payload.iat * 1000 + payload.ttl * 1000 : undefined;
    const exp = typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
    const expiresAt = exp !== undefined && ttl !== undefined ? Math.min(exp, ttl) : (exp ?? ttl);
    return expiresAt === undefined ? { list } : { list, expiresAt };
  }
}
