import { describe, expect, it } from 'vitest';
import { ApiKeyTable } from './api-key-table.js';

describe('ApiKeyTable', () => {
  const table = new ApiKeyTable([
    ['a', ['key-of-a-0001', 'second-key-of-a']],
    ['b', ['key-of-b-0001']],
    ['c', ['ключ-юникод-ü']],
  ]);

  it('finds the owner of every configured key', () => {
    expect(table.ownerOf('key-of-a-0001')).toBe('a');
    expect(table.ownerOf('second-key-of-a')).toBe('a');
    expect(table.ownerOf('key-of-b-0001')).toBe('b');
    expect(table.ownerOf('ключ-юникод-ü')).toBe('c');
  });

  it('refuses prefixes, extensions, near misses and keys longer than any configured one', () => {
    for (const presented of ['', 'key-of-a-000', 'key-of-a-00011', 'key-of-a-0002', 'KEY-OF-A-0001', 'key-of-a-0001\0', 'second-key-of-a'.repeat(50), 'ключ-юникод-u', 'x'])
      expect(table.ownerOf(presented), presented).toBeUndefined();
  });

  it('is not confused by trailing zero bytes or a key presented after a longer one', () => {
    // The slot is padded with zeros: a key that ends in NULs must not equal its shorter prefix.
    const zeros = new ApiKeyTable([['z', ['abcdefgh']], ['y', ['abcdefgh\0\0']]]);
    expect(zeros.ownerOf('abcdefgh')).toBe('z');
    expect(zeros.ownerOf('abcdefgh\0\0')).toBe('y');
    expect(zeros.ownerOf('abcdefgh\0')).toBeUndefined();
    // Nothing of a previous (longer) lookup stays in the reused slot.
    expect(table.ownerOf('second-key-of-a-and-more')).toBeUndefined();
    expect(table.ownerOf('key-of-b-0001')).toBe('b');
  });

  it('with no keys configured, owns nothing', () => {
    expect(new ApiKeyTable<string>([]).ownerOf('anything-at-all')).toBeUndefined();
  });
});
