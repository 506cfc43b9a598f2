import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, withinJsonDepth } from './json-depth.js';

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
