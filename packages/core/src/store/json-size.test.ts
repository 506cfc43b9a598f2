import { describe, expect, it } from 'vitest';
import { jsonSize } from './json-size.js';

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
