import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { derToP1363 } from './der-to-p1363.js';

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const hex = (h: string) => new Uint8Array(Buffer.from(h.replace(/\s/g, ''), 'hex'));

describe('derToP1363', () => {
  it('turns node:crypto DER signatures into r || s that verify as IEEE P1363, whatever the integers\' lengths', () => {
    const lengths = new Set<number>();
    for (let i = 0; i < 300; i++) {
      const data = Buffer.from(`message ${i}`);
      const der = sign('sha256', data, { key: privateKey, dsaEncoding: 'der' });
      lengths.add(der.length);
      const raw = derToP1363(der, 32);
      expect(raw).toHaveLength(64);
      expect(verify('sha256', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, raw)).toBe(true);
    }
    // 72, 71, 70 bytes: both, one or neither integer with DER's sign byte (shorter integers: the next test).
    expect(lengths.has(72) && lengths.has(71) && lengths.has(70)).toBe(true);
  });

  it('left-pads short integers and drops the sign byte', () => {
    expect(Buffer.from(derToP1363(hex('3008 0202 0102 0202 00ff'), 4)).toString('hex')).toBe('00000102000000ff');
  });

  it.each([
    ['not a sequence', '3108 0202 0102 0202 0102'],
    ['a sequence length that is not the rest', '3009 0202 0102 0202 0102'],
    ['a long-form length', '3081 08 0202 0102 0202 0102'],
    ['an element that is not an INTEGER', '3008 0402 0102 0202 0102'],
    ['a negative integer', '3008 0202 8102 0202 0102'],
    ['a zero-length integer', '3006 0200 0204 01020304'],
    ['a zero integer', '3007 020100 0202 0102'],
    ['a needless leading zero', '3009 0203 000102 0202 0102'],
    ['an integer longer than the curve', '300b 0205 0102030405 0202 0102'],
    ['an integer past the end', '3008 0202 0102 0206 0102'],
    ['bytes after the second integer', '3009 0202 0102 0202 0102 00'],
    ['one integer only', '3004 0202 0102'],
  ])('refuses %s', (_what, der) => {
    expect(() => derToP1363(hex(der), 4)).toThrow(TypeError);
  });
});
