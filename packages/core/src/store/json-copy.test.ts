import { describe, expect, it } from 'vitest';
import { frozenJsonCopy, jsonCopy } from './json-copy.js';

const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('jsonCopy', () => {
  it('gives what a JSON round trip gives, for values JSON changes or drops', () => {
    class Point {
      constructor(readonly x: number) {}
    }
    const sparse: unknown[] = [1];
    sparse[3] = 4;
    const value = {
      text: 'a\ud800b',
      numbers: [1, -0, NaN, Infinity, -Infinity, 1.5],
      dropped: undefined,
      fn: () => 1,
      sym: Symbol('s'),
      inArray: [undefined, () => 1, Symbol('t')],
      sparse,
      date: new Date(0),
      point: new Point(3),
      boxed: [new String('s'), new Number(2), new Boolean(false)],
      custom: { toJSON: () => ({ replaced: true }) },
      map: new Map([[1, 2]]),
      bare: Object.assign(Object.create(null) as object, { a: 1 }),
      nested: { deep: [{ a: [null, true, 'x'] }] },
    };
    const copy = jsonCopy(value);
    expect(copy).toStrictEqual(roundTrip(value));
    expect(Object.is((copy as { numbers: number[] }).numbers[1], 0)).toBe(true);
  });

  it('keeps a member named __proto__ as a member instead of setting the prototype', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
    const copy = jsonCopy(value);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
    expect(copy).toStrictEqual(roundTrip(value));
  });

  it('copies nesting deeper than it walks, through the JSON round trip', () => {
    let value: unknown = { leaf: [1] };
    for (let i = 0; i < 500; i++) value = { next: value, list: [i] };
    expect(jsonCopy(value)).toStrictEqual(roundTrip(value));
  });

  it('never returns an object or array of its input', () => {
    const inner = { b: [1, { c: 2 }] };
    const value = { a: inner, list: [inner] };
    const copy = jsonCopy(value);
    copy.a.b.push(3);
    (copy.list[0]!.b[1] as { c: number }).c = 9;
    expect(value).toStrictEqual({ a: { b: [1, { c: 2 }] }, list: [{ b: [1, { c: 2 }] }] });
  });

  it('throws on what JSON cannot encode', () => {
    expect(() => jsonCopy({ big: 1n })).toThrow(TypeError);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => jsonCopy(cyclic)).toThrow();
  });
});

describe('frozenJsonCopy', () => {
  const allFrozen = (value: unknown): boolean =>
    typeof value !== 'object' || value === null || (Object.isFrozen(value) && Object.values(value).every(allFrozen));

  it('gives the same value as jsonCopy with every object and array frozen, also past the walked depth', () => {
    let deep: unknown = { leaf: [1, { x: 'y' }] };
    for (let i = 0; i < 100; i++) deep = { next: deep, list: [i] };
    const value = { a: [{ b: 1 }, 'c'], date: new Date(0), custom: { toJSON: () => ({ replaced: [1] }) }, deep };
    const copy = frozenJsonCopy(value);
    expect(copy).toStrictEqual(jsonCopy(value));
    expect(allFrozen(copy)).toBe(true);
    expect(Object.isFrozen(value.a)).toBe(false); // the input is left alone
  });

  it('keeps a __proto__ member a member when frozen', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"a":[1]}') as Record<string, unknown>;
    const copy = frozenJsonCopy(value);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
    expect(allFrozen(copy)).toBe(true);
  });

  it('refuses writes anywhere in the copy', () => {
    const copy = frozenJsonCopy({ list: [{ n: 1 }] });
    expect(() => copy.list.push({ n: 2 })).toThrow(TypeError);
    expect(() => {
      copy.list[0]!.n = 2;
    }).toThrow(TypeError);
    expect(copy).toStrictEqual({ list: [{ n: 1 }] });
  });
});
