import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeStatusList, readStatusValue, type StatusList } from './read-status-value.js';

// The largest list decodeStatusList inflates (16 MiB): byte 0 holds 0xFF (every entry in it
// INVALID), the last byte 0x80 and the rest 0. A reader doing 32-bit bit arithmetic (`idx * bits
// >> 3`, `| 0`) would wrap an offset past 2^31 or 2^32 back into the list, here onto byte 0.
const SIZE = 16 * 1024 * 1024;
const bytes = new Uint8Array(SIZE);
bytes[0] = 0xff;
bytes[SIZE - 1] = 0x80;
const lst = Buffer.from(deflateSync(bytes)).toString('base64url');

describe('a Token Status List index at the bounds of the largest list', () => {
  const lists = new Map<1 | 2 | 4 | 8, StatusList>();
  const listOf = (bits: 1 | 2 | 4 | 8) => lists.get(bits) ?? lists.set(bits, decodeStatusList({ bits, lst })).get(bits)!;

  it('reads the first and the last entry of a 16 MiB list for every entry size', () => {
    for (const bits of [1, 2, 4, 8] as const) {
      const list = listOf(bits);
      expect(list.list.length).toBe(SIZE);
      const entries = (SIZE * 8) / bits;
      expect(readStatusValue(list, 0)).toBe((1 << bits) - 1);
      expect(readStatusValue(list, entries - 1)).toBe(0x80 >> (8 - bits));
      expect(readStatusValue(list, entries - 2)).toBe(0);
    }
  });

  it('refuses the first index past the list, and indexes whose bit offset passes 2^31, 2^32 or 2^53, instead of wrapping onto entry 0', () => {
    for (const bits of [1, 2, 4, 8] as const) {
      const list = listOf(bits);
      const past = (SIZE * 8) / bits;
      for (const idx of [past, 2 ** 31 / bits, 2 ** 32 / bits, 2 ** 32, 2 ** 35 / bits, Number.MAX_SAFE_INTEGER]) {
        expect(() => readStatusValue(list, idx), `bits ${bits}, idx ${idx}`).toThrow(/outside the status list/);
      }
    }
  });

  it('refuses a negative, fractional or unsafe index', () => {
    for (const idx of [-1, -(2 ** 31), 0.5, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => readStatusValue(listOf(1), idx), `idx ${idx}`).toThrow(/not a non-negative integer/);
    }
  });

  it('refuses a list that inflates past 16 MiB, so no index reaches past 2^27 bits', () => {
    expect(() => decodeStatusList({ bits: 1, lst: Buffer.from(deflateSync(new Uint8Array(SIZE + 1))).toString('base64url') })).toThrow(/not valid zlib data/);
  });
});
