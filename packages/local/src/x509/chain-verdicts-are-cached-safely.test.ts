import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestCa } from '@vp-authorizer/testing';
import { ChainVerdictCache, anchorSetDigest, chainCacheKey } from './chain-verdict-cache.js';
import { verifyCertificateChain } from './verify-certificate-chain.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const fresh = () => new ChainVerdictCache<never>(16) as ChainVerdictCache<never>;
type Cache = Parameters<typeof verifyCertificateChain>[3];
const withCache = (cache: ChainVerdictCache<never>) => ({ cache }) as NonNullable<Cache>;

describe('chain verdict cache', () => {
  it('answers a repeated chain from the cache (the same verdict object)', async () => {
    const root = await createTestCa();
    const leaf = await root.issue({ subject: 'CN=Issuer' });
    const cache = fresh();
    const now = new Date();
    const first = await verifyCertificateChain([leaf.x5c], [root.pem], now, withCache(cache));
    expect(first.valid).toBe(true);
    expect(cache.size).toBe(1);
    // base64 and DER input are the same bytes, hence the same entry.
    expect(await verifyCertificateChain([leaf.der], [root.pem], now, withCache(cache))).toBe(first);
  });

  it('does not accept a chain verified under anchor set A under anchor set B', async () => {
    const a = await createTestCa('CN=Root A');
    const b = await createTestCa('CN=Root B');
    const leaf = await a.issue({ subject: 'CN=Issuer under A' });
    const cache = fresh();
    const now = new Date();
    expect((await verifyCertificateChain([leaf.x5c], [a.pem], now, withCache(cache))).valid).toBe(true);
    expect(await verifyCertificateChain([leaf.x5c], [b.pem], now, withCache(cache))).toMatchObject({ valid: false, code: 'trusted_issuer.untrusted' });
    expect(chainCacheKey([leaf.der], [a.pem])).not.toBe(chainCacheKey([leaf.der], [b.pem]));
  });

  it('refuses a leaf once the clock passes its notAfter, although it was cached while valid', async () => {
    const root = await createTestCa();
    const start = Date.now();
    const leaf = await root.issue({ subject: 'CN=Short-lived', notBefore: new Date(start - HOUR), notAfter: new Date(start + HOUR) });
    const cache = fresh();
    expect((await verifyCertificateChain([leaf.x5c], [root.pem], new Date(start), withCache(cache))).valid).toBe(true);
    // The injected clock, not the wall clock, decides.
    expect(await verifyCertificateChain([leaf.x5c], [root.pem], new Date(start + 2 * HOUR), withCache(cache))).toMatchObject({
      valid: false,
      code: 'trusted_issuer.chain_invalid',
      detail: 'the leaf certificate has expired',
    });
    expect(await verifyCertificateChain([leaf.x5c], [root.pem], new Date(start - 2 * HOUR), withCache(cache))).toMatchObject({
      valid: false,
      detail: 'the leaf certificate is not yet valid',
    });
  });

  it('refuses a chain once its anchor or intermediate expires, although it was cached while valid', async () => {
    const start = Date.now();
    const root = await createTestCa('CN=Short Root', { notAfter: new Date(start + HOUR) });
    const intermediate = await root.issue({ subject: 'CN=Intermediate', ca: true, notAfter: new Date(start + 3 * HOUR) });
    const leaf = await intermediate.issue({ subject: 'CN=Leaf', notAfter: new Date(start + 10 * DAY) });
    const cache = fresh();
    expect((await verifyCertificateChain([leaf.x5c, intermediate.x5c], [root.pem], new Date(start), withCache(cache))).valid).toBe(true);
    expect(await verifyCertificateChain([leaf.x5c, intermediate.x5c], [root.pem], new Date(start + 2 * HOUR), withCache(cache))).toMatchObject({
      valid: false,
      detail: 'the trust anchor has expired',
    });
    expect(await verifyCertificateChain([leaf.x5c, intermediate.x5c], [root.pem], new Date(start + 4 * HOUR), withCache(cache))).toMatchObject({
      valid: false,
      detail: 'intermediate certificate 1 has expired',
    });
  });

  it('does not accept a certificate with a tampered signature through the entry of the genuine one', async () => {
    const root = await createTestCa();
    const intermediate = await root.issue({ subject: 'CN=Intermediate', ca: true });
    const leaf = await intermediate.issue({ subject: 'CN=Leaf' });
    const cache = fresh();
    const now = new Date();
    expect((await verifyCertificateChain([leaf.der, intermediate.der], [root.pem], now, withCache(cache))).valid).toBe(true);
    // Same subject, issuer, key and TBS bytes: only the last byte of the signature differs.
    const tamper = (der: Uint8Array) => {
      const copy = new Uint8Array(der);
      copy[copy.length - 1]! ^= 0x01;
      return copy;
    };
    expect(await verifyCertificateChain([tamper(leaf.der), intermediate.der], [root.pem], now, withCache(cache))).toMatchObject({
      valid: false,
      detail: 'the leaf certificate is not signed by intermediate certificate 1',
    });
    expect(await verifyCertificateChain([leaf.der, tamper(intermediate.der)], [root.pem], now, withCache(cache))).toMatchObject({
      valid: false,
      code: 'trusted_issuer.untrusted',
    });
    // Failures are not remembered.
    expect(cache.size).toBe(1);
  });

  it('stays within its bound, dropping the least recently used chain', async () => {
    const root = await createTestCa();
    const leaves = await Promise.all([1, 2, 3].map((n) => root.issue({ subject: `CN=Leaf ${n}` })));
    const cache = new ChainVerdictCache<never>(2);
    const now = new Date();
    const key = (i: number) => chainCacheKey([leaves[i]!.der], [root.pem]);
    for (const leaf of leaves.slice(0, 2)) await verifyCertificateChain([leaf.x5c], [root.pem], now, withCache(cache));
    expect(cache.get(key(0), now.getTime())).toBeDefined(); // leaf 0 is now the most recently used
    await verifyCertificateChain([leaves[2]!.x5c], [root.pem], now, withCache(cache));
    expect(cache.size).toBe(2);
    expect(cache.get(key(1), now.getTime())).toBeUndefined();
    expect(cache.get(key(0), now.getTime())).toBeDefined();
    expect(cache.get(key(2), now.getTime())).toBeDefined();
    expect(() => new ChainVerdictCache(0)).toThrow(RangeError);
  });

  it('keys on the count of certificates before their length-prefixed bytes, then on the digest of the anchor set', () => {
    const u32 = (n: number) => Buffer.from([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
    const ders = [new Uint8Array([1, 2, 3]), new Uint8Array([0, 0, 0, 2, 120, 121])];
    const anchors = ['xy', ''];
    // Written out here, independently of the implementation.
    const anchorDigest = createHash('sha256').update(Buffer.concat([u32(2), u32(2), Buffer.from('xy'), u32(0)])).digest();
    const expected = createHash('sha256')
      .update(Buffer.concat([u32(2), u32(3), Buffer.from([1, 2, 3]), u32(6), Buffer.from([0, 0, 0, 2, 120, 121]), anchorDigest]))
      .digest('base64url');
    expect(chainCacheKey(ders, anchors)).toBe(expected);
    // Moving a boundary between chain and anchors changes the key.
    expect(chainCacheKey(ders.slice(0, 1), anchors)).not.toBe(chainCacheKey(ders, []));
  });

  it('digests a frozen anchor set once, and re-digests a mutable one on every call', async () => {
    const a = await createTestCa('CN=Root A');
    const b = await createTestCa('CN=Root B');
    const frozen = Object.freeze([a.pem]);
    expect(anchorSetDigest(frozen)).toBe(anchorSetDigest(frozen));
    const mutable = [a.pem];
    const before = chainCacheKey([new Uint8Array([1])], mutable);
    mutable[0] = b.pem;
    expect(chainCacheKey([new Uint8Array([1])], mutable)).not.toBe(before);
    expect(chainCacheKey([new Uint8Array([1])], mutable)).toBe(chainCacheKey([new Uint8Array([1])], Object.freeze([b.pem])));
  });

  it('does not serve a verdict cached under a mutable anchor array after the array was edited in place', async () => {
    const a = await createTestCa('CN=Root A');
    const b = await createTestCa('CN=Root B');
    const leaf = await a.issue({ subject: 'CN=Issuer under A' });
    const cache = fresh();
    const now = new Date();
    const anchors = [a.pem];
    expect((await verifyCertificateChain([leaf.x5c], anchors, now, withCache(cache))).valid).toBe(true);
    anchors[0] = b.pem;
    expect(await verifyCertificateChain([leaf.x5c], anchors, now, withCache(cache))).toMatchObject({ valid: false, code: 'trusted_issuer.untrusted' });
  });
});
