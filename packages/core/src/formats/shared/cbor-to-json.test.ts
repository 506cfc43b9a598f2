import { Decoder } from 'cbor-x';
import { describe, expect, it } from 'vitest';
import { CborBudget, CborBudgetExceeded } from './cbor-budget.js';
import { cborToJson } from './cbor-to-json.js';

/** A CBOR array whose element i is [shared(i-1), shared(i-1)] via tags 28/29: tiny bytes, 2^n tree. */
function sharedReferenceDag(levels: number): Uint8Array {
  const int = (i: number) => (i < 24 ? i.toString(16).padStart(2, '0') : `18${i.toString(16).padStart(2, '0')}`);
  let hex = `98${levels.toString(16).padStart(2, '0')}d81c8101`;
  for (let i = 1; i < levels; i++) hex += `d81c82d81d${int(i - 1)}d81d${int(i - 1)}`;
  return Buffer.from(hex, 'hex');
}

describe('cborToJson', () => {
  it('converts mdoc values (bytes, dates, maps)', () => {
    expect(cborToJson(new Map<unknown, unknown>([['a', new Uint8Array([1, 2])], [1, new Date('2024-01-02T00:00:00Z')]]))).toEqual({ a: 'AQI', 1: '2024-01-02T00:00:00.000Z' });
  });

  it('bounds the work on a value graph reached many times (regression: exponential expansion of a 200-byte value)', () => {
    // Decoded with plain cbor-x, which resolves tags 28/29: the wallet decoder refuses them earlier.
    const value = new Decoder({ mapsAsObjects: false, useRecords: false }).decode(sharedReferenceDag(40));
    const budget = new CborBudget(10_000);
    expect(() => cborToJson(value, budget)).toThrow(CborBudgetExceeded);
    expect(budget.used).toBeGreaterThan(10_000);
  });

  it('charges every node to the budget it is given, so callers can share one across values', () => {
    const budget = new CborBudget(100);
    cborToJson([1, 2, 3], budget);
    expect(budget.used).toBe(4);
    cborToJson(new Map([['a', 1]]), budget);
    expect(budget.used).toBe(7);
  });
});
