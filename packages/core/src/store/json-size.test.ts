import { describe, expect, it } from 'vitest';
import { NODE_OVERHEAD_BYTES, SCALAR_OVERHEAD_BYTES, accountedBytes, jsonSize } from './json-size.js';

const length = (value: unknown) => JSON.stringify(value).length;

describe('jsonSize', () => {
  it("equals the length of JSON.stringify's text for values without escapes", () => {
    const values: unknown[] = [
      null,
      true,
      false,
      0,
      -12.5e-7,
      'Érika Müller 漢字 🙂',
      [],
      {},
      [1, 'two', null, [3], { four: 4 }],
      { a: 1, b: { c: [true, false, null], d: 'ü' }, e: [] },
      // Members JSON leaves out, and the null an array gets instead.
      { kept: 1, gone: undefined, fn: () => 1 },
      [undefined, () => 1, 'x'],
      [Number.NaN, Number.POSITIVE_INFINITY],
    ];
    for (const value of values) expect(jsonSize(value), JSON.stringify(value)).toBe(length(value));
  });

  it('answers Infinity past the limit and the size up to it', () => {
    const value = { meta: 'x'.repeat(1_000) };
    expect(jsonSize(value, length(value))).toBe(length(value));
    expect(jsonSize(value, length(value) - 1)).toBe(Infinity);
  });

  it('measures a value nested far deeper than JSON.stringify can walk, without a stack overflow', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 200_000; i++) deep = { a: [deep] };
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(jsonSize(deep)).toBe(200_000 * '{"a":[]}'.length + '"leaf"'.length);
    expect(jsonSize(deep, 1_000)).toBe(Infinity);
  });

  it('stops at the limit on a huge array before walking its items', () => {
    const huge = new Array<number>(5_000_000).fill(0);
    expect(jsonSize(huge, 1_000)).toBe(Infinity);
  });
});

describe('accountedBytes (≈ heap)', () => {
  it('charges every object or array and every scalar and key on top of the JSON length', () => {
    expect(accountedBytes({})).toBe(2 + NODE_OVERHEAD_BYTES);
    expect(accountedBytes([])).toBe(2 + NODE_OVERHEAD_BYTES);
    expect(accountedBytes('ab')).toBe(4 + SCALAR_OVERHEAD_BYTES);
    // One object, one key, one scalar.
    expect(accountedBytes({ a: 1 })).toBe(length({ a: 1 }) + NODE_OVERHEAD_BYTES + 2 * SCALAR_OVERHEAD_BYTES);
    // One array, two objects, two scalars.
    expect(accountedBytes([{}, null, [true]])).toBe(length([{}, null, [true]]) + 3 * NODE_OVERHEAD_BYTES + 2 * SCALAR_OVERHEAD_BYTES);
  });

  it('counts many empty objects at some twenty times their JSON length', () => {
    const empties = Array.from({ length: 10_000 }, () => ({}));
    expect(jsonSize(empties)).toBe(length(empties));
    expect(accountedBytes(empties)).toBeGreaterThan(20 * length(empties));
  });

  it('answers Infinity past the limit, nested or wide, without a stack overflow', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 200_000; i++) deep = { a: [deep] };
    expect(accountedBytes(deep, 1_000)).toBe(Infinity);
    expect(accountedBytes(new Array<number>(5_000_000).fill(0), 1_000)).toBe(Infinity);
    const value = { a: 'x' };
    expect(accountedBytes(value, accountedBytes(value))).toBe(accountedBytes(value));
    expect(accountedBytes(value, accountedBytes(value) - 1)).toBe(Infinity);
  });
});
