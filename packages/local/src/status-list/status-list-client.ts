import { decodeProtectedHeader } from 'jose';
import { OutboundFetchError, type OutboundFetchPolicy } from '@vp-authorizer/core';
import { outboundGet } from '@vp-authorizer/core/internal';
import { checkCompactSignature } from '../jws/check-compact-signature.js';
import { publicKeyOf } from '../x509/certificate.js';
import { sameDer } from '../x509/certificate.js';
import { anchorsForChain, type IssuerAnchorSource } from '../x509/issuer-anchors.js';
import { verifyCertificateChain } from '../x509/verify-certificate-chain.js';
import { decodeStatusList, readStatusValue, type StatusList } from './read-status-value.js';
import { StatusListError } from './status-list-error.js';

export interface StatusListClientOptions {
  /** The status list URI comes from the wallet's credential: the outbound fetch policy applies. */
  outbound: OutboundFetchPolicy;
  /** One deadline for resolution, connection, headers and body. */
  timeoutMs: number;
  maxBytes: number;
  trustAnchors: readonly string[];
  /** Listed roots of status-list signers (revocation services of trusted lists). */
  issuerAnchors?: IssuerAnchorSource;
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
  /**
   * DER of the trust anchor the credential chains to: the token must chain to the same one, so
   * one trusted issuer cannot publish the status of another's credentials. Omitted: any anchor.
   */
  issuerAnchor?: Uint8Array;
  /** HAIP §7: the token's x5c must not contain an anchor nor be one. */
  haip?: boolean;
}

/** A verified list and how its signing chain was trusted (checked per lookup, cached or not). */
interface TrustedList {
  list: StatusList;
  anchor: Uint8Array;
  leafIsAnchor: boolean;
  anchorIncluded: boolean;
}

interface CacheEntry extends TrustedList {
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
    const trusted = await this.#list(lookup);
    if (lookup.issuerAnchor && !sameDer(trusted.anchor, lookup.issuerAnchor)) throw unavailable('The status list token is not signed under the trust anchor of the credential');
    if (lookup.haip && (trusted.leafIsAnchor || trusted.anchorIncluded)) throw unavailable('HAIP requires a status list token x5c without the trust anchor');
    return readStatusValue(trusted.list, lookup.idx);
  }

  async #list(lookup: StatusLookup): Promise<TrustedList> {
    const hit = this.#cache.get(lookup.uri);
    if (hit && hit.expiresAt > lookup.now) return hit;
    this.#cache.delete(lookup.uri);
    const { expiresAt, ...trusted } = await this.#fetchAndVerify(lookup);
    if (expiresAt !== undefined && expiresAt > lookup.now) {
      if (this.#cache.size >= (this.options.maxEntries ?? 1_000)) this.#cache.delete(this.#cache.keys().next().value!);
      this.#cache.set(lookup.uri, { ...trusted, expiresAt });
    }
    return trusted;
  }

  async #fetchAndVerify({ uri, now, allowedAlgs, signal }: StatusLookup): Promise<TrustedList & { expiresAt?: number }> {
    let body: Uint8Array;
    try {
      ({ body } = await outboundGet(uri, { accept: 'application/statuslist+jwt', timeoutMs: this.options.timeoutMs, maxBytes: this.options.maxBytes, signal }, this.options.outbound));
    } catch (error) {
      // The reason is ours (policy, limit, failure class), never what the remote host answered.
      if (error instanceof OutboundFetchError) throw unavailable(`The status list could not be fetched: ${error.message}`);
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
    const { anchors, refusal } = await anchorsForChain(this.options.trustAnchors, this.options.issuerAnchors, header.x5c as string[], { purpose: 'status_list', credentialTypes: [] });
    const chain = await verifyCertificateChain(header.x5c as string[], anchors, new Date(now));
    if (!chain.valid) throw unavailable(`The status list token certificate is not trusted: ${chain.code === 'trusted_issuer.untrusted' && refusal ? refusal.detail : chain.detail}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder().decode(checkCompactSignature(jwt, publicKeyOf(chain.leaf), header.alg)));
    } catch {
      throw unavailable('The status list token signature is invalid');
    }
    // A validly signed `null` or array payload must be a status error, not a TypeError.
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw unavailable('The status list token payload is not a JSON object');
    const payload = parsed as Record<string, unknown>;
    if (payload.sub !== uri) throw unavailable('The status list token sub does not match the status list URI');
    if (typeof payload.iat !== 'number') throw unavailable('The status list token has no iat');
    const skew = this.options.clockSkewMs;
    if (payload.exp !== undefined && (typeof payload.exp !== 'number' || payload.exp * 1000 + skew <= now)) throw unavailable('The status list token has expired');
    const list = decodeStatusList(payload.status_list);
    const ttl = typeof payload.ttl === 'number' && payload.ttl > 0 ? payload.iat * 1000 + payload.ttl * 1000 : undefined;
    const exp = typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
    const expiresAt = exp !== undefined && ttl !== undefined ? Math.min(exp, ttl) : (exp ?? ttl);
    const trusted = { list, anchor: chain.anchor.der, leafIsAnchor: chain.leafIsAnchor, anchorIncluded: chain.anchorIncluded };
    return expiresAt === undefined ? trusted : { ...trusted, expiresAt };
  }
}
