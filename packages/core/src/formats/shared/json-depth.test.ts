import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, jsonTextWithinDepth, tooDeepPointer, withinJsonDepth } from './json-depth.js';

const nested = (depth: number) => JSON.parse('['.repeat(depth) + ']'.repeat(depth));

describe('withinJsonDepth', () => {
  it('accepts ordinary values and refuses deep nesting without recursion', () => {
    expect(withinJsonDepth({ a: [1, { b: 'x' }] })).toBe(true);
    expect(withinJsonDepth('text')).toBe(true);
    expect(withinJsonDepth(nested(MAX_JSON_DEPTH))).toBe(true);
    expect(withinJsonDepth(nested(MAX_JSON_DEPTH + 1))).toBe(false);
    // Deep enough to overflow a recursive walker (and structuredClone).
    expect(withinJsonDepth(nested(200_000))).toBe(false);
  });
});

describe('tooDeepPointer', () => {
  it('names the first container past the limit, in document order, with RFC 6901 escapes', () => {
    expect(tooDeepPointer({ a: [1, { b: 'x' }] })).toBeUndefined();
    expect(tooDeepPointer(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(tooDeepPointer(nested(MAX_JSON_DEPTH + 1))).toBe('/0'.repeat(MAX_JSON_DEPTH));
    expect(tooDeepPointer(nested(200_000))).toBe('/0'.repeat(MAX_JSON_DEPTH));
    // The shallow member comes first; the deep one is found under its escaped name.
    expect(tooDeepPointer({ ok: [[]], 'a/b~c': [1, nested(3)] }, 3)).toBe('/a~1b~0c/1/0');
    expect(tooDeepPointer({ first: nested(3), second: nested(3) }, 3)).toBe('/first/0/0');
  });

  it('cuts a pointer over 512 characters back to the deepest ancestor that fits', () => {
    const long = 'k'.repeat(300);
    const pointer = tooDeepPointer({ [long]: { [long]: nested(5) } }, 3);
    expect(pointer).toBe(`/${long}`);
  });
});

describe('jsonTextWithinDepth', () => {
  it('gives the verdict withinJsonDepth gives on the parsed value, brackets inside strings included', () => {
    const text = fc.oneof(
      fc.jsonValue({ maxDepth: 8 }).map((v) => JSON.stringify(v)),
      fc.tuple(fc.nat(12), fc.string()).map(([depth, s]) => `${'['.repeat(depth)}${JSON.stringify(s)}${']'.repeat(depth)}`),
      fc.tuple(fc.nat(12), fc.constantFrom('"[[[\\"{{"', '"\\\\"', '{"a]":"}}"}')).map(([depth, s]) => `${'{"k":'.repeat(depth)}${s}${'}'.repeat(depth)}`),
    );
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 10 }), (json, max) => {
        expect(jsonTextWithinDepth(json, max)).toBe(withinJsonDepth(JSON.parse(json), max));
      }),
      { numRuns: 2000 },
    );
    expect(jsonTextWithinDepth('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH))).toBe(true);
    expect(jsonTextWithinDepth('['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1))).toBe(false);
    // Stops at the first bracket too deep, whatever follows (no parse of the rest).
    expect(jsonTextWithinDepth('['.repeat(200_000))).toBe(false);
  });
});
