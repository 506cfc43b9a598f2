import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { digest, isSupportedHash } from './encoding.js';

describe('hash names', () => {
  it('knows the registry names and nothing every object has', () => {
    for (const name of ['sha-256', 'sha-384', 'sha-512']) expect(isSupportedHash(name)).toBe(true);
    for (const name of ['SHA-256', 'constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(isSupportedHash(name)).toBe(false);
      expect(() => digest(name, 'x')).toThrow(`Unsupported hash algorithm ${name}`);
    }
  });

  it('digests strings as UTF-8 and bytes as given', () => {
    expect(Buffer.from(digest('sha-256', 'é')).toString('hex')).toBe(createHash('sha256').update('é', 'utf8').digest('hex'));
    const bytes = new Uint8Array([1, 2, 3, 4]).subarray(1, 3);
    expect(Buffer.from(digest('sha-512', bytes)).toString('hex')).toBe(createHash('sha512').update(bytes).digest('hex'));
  });
});
