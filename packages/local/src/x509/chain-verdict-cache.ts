import { createHash } from 'node:crypto';
import type { ParsedCertificate } from './certificate.js';

/** A chain that passed every check, with the certificates whose validity periods it relied on. */
export interface CachedVerdict<V> {
  verdict: V;
  /** Epoch ms: the latest notBefore and the earliest notAfter of the path and its anchor. */
  notBefore: number;
  notAfter: number;
}

/**
 * Bounded LRU of positive chain verdicts. A verdict depends only on the exact certificate bytes,
 * the anchor set and the time, so the key is a hash of every certificate's full DER (signature
 * included: a tampered certificate is a different key) plus the anchor set, and a hit is used
 * only while `now` lies inside every validity period the verification checked. Failures are not
 * cached: they are recomputed, so a cache can only ever say yes to what a full check said yes to.
 */
export class ChainVerdictCache<V = unknown> {
  readonly #entries = new Map<string, CachedVerdict<V>>();

  constructor(readonly maxEntries = 512) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError('ChainVerdictCache needs maxEntries >= 1');
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The verdict for `key` when `now` (epoch ms, the caller's clock) is inside its validity window. */
  get(key: string, now: number): V | undefined {
    const hit = this.#entries.get(key);
    if (!hit) return undefined;
    if (now < hit.notBefore || now > hit.notAfter) {
      this.#entries.delete(key);
      return undefined;
    }
    // Most recently used last: Map iteration order is insertion order.
    this.#entries.delete(key);
    this.#entries.set(key, hit);
    return hit.verdict;
  }

  set(key: string, verdict: V, checked: readonly ParsedCertificate[]): void {
    let notBefore = -Infinity;
    let notAfter = Infinity;
    for (const c of checked) {
      notBefore = Math.max(notBefore, c.cert.notBefore.getTime());
      notAfter = Math.min(notAfter, c.cert.notAfter.getTime());
    }
    this.#entries.delete(key);
    this.#entries.set(key, { verdict, notBefore, notAfter });
    while (this.#entries.size > this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
  }

  clear(): void {
    this.#entries.clear();
  }
}

/**
 * Digest of an anchor set: SHA-256 over the number of anchors, then each PEM with its length
 * (u32 big-endian). A frozen array of strings cannot change, so its digest is computed once and
 * remembered by identity (callers freeze their anchors at construction); any other array is
 * hashed on every call, since its contents could have changed since the last one.
 */
export function anchorSetDigest(anchorsPem: readonly string[]): Buffer {
  const known = Object.isFrozen(anchorsPem) ? anchorDigests.get(anchorsPem) : undefined;
  if (known) return known;
  const hash = createHash('sha256');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(anchorsPem.length);
  hash.update(length);
  for (const pem of anchorsPem) {
    length.writeUInt32BE(Buffer.byteLength(pem));
    hash.update(length).update(pem);
  }
  const digest = hash.digest();
  if (Object.isFrozen(anchorsPem)) anchorDigests.set(anchorsPem, digest);
  return digest;
}

const anchorDigests = new WeakMap<readonly string[], Buffer>();

/**
 * Cache key of a chain under an anchor set: SHA-256 over the number of certificates, each DER with
 * its length (u32 big-endian), then the anchor set's digest (fixed length, so no split of the same
 * bytes into chain and anchors gives the same input).
 */
export function chainCacheKey(ders: readonly Uint8Array[], anchorsPem: readonly string[]): string {
  const hash = createHash('sha256');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(ders.length);
  hash.update(length);
  for (const der of ders) {
    length.writeUInt32BE(der.length);
    hash.update(length).update(der);
  }
  // The anchor set is part of the key: a chain trusted under one set says nothing under another.
  return hash.update(anchorSetDigest(anchorsPem)).digest('base64url');
}
