import { describe, expect, it } from 'vitest';
import { frozenJsonCopy, frozenJsonCopyOver, jsonCopy } from './json-copy.js';

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

describe('frozenJsonCopyOver', () => {
  const allFrozen = (value: unknown): boolean =>
    typeof value !== 'object' || value === null || (Object.isFrozen(value) && Object.values(value).every(allFrozen));

  it('takes over the members the previous copy holds and copies the rest, to the same value', () => {
    const previous = frozenJsonCopy({ id: 'a', request: { nonce: 'n', list: [1, 2] }, status: 'created', results: { ok: true } });
    const added = { claims: [{ given_name: 'Erika' }], when: new Date(0) };
    const next = { ...previous, status: 'pending', added, results: { ok: false } };
    const copy = frozenJsonCopyOver(next, previous);
    expect(copy).toStrictEqual(frozenJsonCopy(next));
    expect(allFrozen(copy)).toBe(true);
    expect(copy.request).toBe(previous.request); // already frozen and JSON-clean: not read again
    expect(copy.added).not.toBe(added); // new members are copied: the caller keeps no handle into the copy
    added.claims[0]!.given_name = 'changed';
    expect(copy.added.claims[0]!.given_name).toBe('Erika');
    expect(copy.results).toStrictEqual({ ok: false });
  });

  it('copies a member that only looks like the previous one, and never takes over a __proto__ member', () => {
    const previous = frozenJsonCopy(JSON.parse('{"__proto__":{"p":1},"a":{"x":1}}') as Record<string, unknown>);
    const lookalike = { x: 1 };
    const next = Object.defineProperty({ a: lookalike }, '__proto__', { value: previous['__proto__'], enumerable: true, writable: true, configurable: true });
    const copy = frozenJsonCopyOver(next as Record<string, unknown>, previous);
    expect(copy['a']).not.toBe(lookalike);
    expect(copy['__proto__']).not.toBe(previous['__proto__']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy).toStrictEqual(frozenJsonCopy(next));
    expect(allFrozen(copy)).toBe(true);
  });

  it('copies what is not a plain object as frozenJsonCopy does', () => {
    const previous = frozenJsonCopy({ a: { b: 1 } });
    const custom = { a: previous.a, toJSON: () => ({ replaced: true }) };
    expect(frozenJsonCopyOver(custom, previous)).toStrictEqual({ replaced: true });
  });

  it('takes over only what the previous copy holds as its own member, never an inherited one', () => {
    const shared = { x: 1 };
    // As if Object.prototype had been polluted with an object the caller also holds.
    const previous = Object.freeze(Object.create(Object.freeze({ a: shared })) as object);
    const copy = frozenJsonCopyOver({ a: shared }, previous);
    expect(copy.a).not.toBe(shared);
    expect(Object.isFrozen(copy.a)).toBe(true);
    expect(Object.isFrozen(shared)).toBe(false);
  });
});
