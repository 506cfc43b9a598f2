import { describe, expect, it } from 'vitest';
import { MIN_BITSTRING_BYTES, readBitstringStatus } from './bitstring.js';

// A 131,072-entry list of 8-bit entries whose entry i holds i % 256 (entry 5 reads 5).
const bits = Uint8Array.from({ length: MIN_BITSTRING_BYTES * 8 }, (_, i) => i % 256);

describe('a Bitstring Status List index outside the list', () => {
  it('reads the entries inside the list, the last one included', () => {
    expect(readBitstringStatus(bits, 5, 8)).toBe(5);
    expect(readBitstringStatus(bits, 131_071, 8)).toBe(131_071 % 256);
    expect(readBitstringStatus(Uint8Array.of(0b1011_0100), 1, 4)).toBe(0b0100);
  });

  it('refuses an index whose bit offset passes 2^32 instead of wrapping back to entry 5', () => {
    expect(() => readBitstringStatus(bits, 2 ** 29 + 5, 8)).toThrow(/outside the status list/);
    expect(() => readBitstringStatus(bits, 131_072, 8)).toThrow(/outside the status list/);
    expect(() => readBitstringStatus(bits, Number.MAX_SAFE_INTEGER, 1)).toThrow(/outside the status list/);
  });

  it('refuses negative and non-integer indexes', () => {
    for (const index of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => readBitstringStatus(bits, index, 8)).toThrow(/not a non-negative integer/);
    }
  });
});
