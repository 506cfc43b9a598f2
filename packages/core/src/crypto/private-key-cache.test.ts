import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PrivateKeyCache } from './private-key-cache.js';

const pair = () => {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { key: privateKey, jwk: privateKey.export({ format: 'jwk' }) };
};
const dOf = (key: import('node:crypto').KeyObject) => key.export({ format: 'jwk' }).d;

describe('PrivateKeyCache', () => {
  it('hands out the remembered KeyObject once, then imports from the record', () => {
    const cache = new PrivateKeyCache(4);
    const a = pair();
    cache.remember('kid-a', a.key, a.jwk);
    expect(cache.take('kid-a', a.jwk)).toBe(a.key);
    expect(cache.size).toBe(0);
    const again = cache.take('kid-a', a.jwk);
    expect(again).not.toBe(a.key);
    expect(dOf(again)).toBe(a.jwk.d);
  });

  it('uses the record, not the cache, when the stored key differs from the remembered one', () => {
    const cache = new PrivateKeyCache(4);
    const a = pair();
    const b = pair();
    cache.remember('kid', a.key, a.jwk);
    const taken = cache.take('kid', b.jwk);
    expect(dOf(taken)).toBe(b.jwk.d);
  });

  it('stays within its bound', () => {
    const cache = new PrivateKeyCache(2);
    const keys = [pair(), pair(), pair()];
    keys.forEach((k, i) => cache.remember(`kid-${i}`, k.key, k.jwk));
    expect(cache.size).toBe(2);
    expect(cache.take('kid-0', keys[0]!.jwk)).not.toBe(keys[0]!.key);
    expect(cache.take('kid-2', keys[2]!.jwk)).toBe(keys[2]!.key);
  });
});
