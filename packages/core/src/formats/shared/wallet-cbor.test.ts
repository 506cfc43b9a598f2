import { Encoder, Tag } from 'cbor-x';
import { describe, expect, it } from 'vitest';
import { CborBudget, CborBudgetExceeded } from './cbor-budget.js';
import { decodeWalletCbor, WalletCborRefused } from './wallet-cbor.js';

const hex = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));
const cbor = new Encoder({ useRecords: false, tagUint8Array: false, mapsAsObjects: false, variableMapSize: true });

describe('decodeWalletCbor', () => {
  it('decodes what mdoc uses: maps with integer keys, bytes, tags 0/18/24/1004, floats, indefinite arrays', () => {
    const value = new Map<unknown, unknown>([
      [1, -7],
      ['b', new Uint8Array([1, 2])],
      ['t', new Tag(new Uint8Array([0xa0]), 24)],
      ['d', new Tag('2024-01-01', 1004)],
      ['s', new Tag([new Uint8Array(0), new Map(), null, new Uint8Array(1)], 18)],
      ['f', 1.5],
      ['n', null],
    ]);
    const decoded = decodeWalletCbor(cbor.encode(value)) as Map<unknown, unknown>;
    expect(decoded.get(1)).toBe(-7);
    expect(decoded.get('t')).toBeInstanceOf(Tag);
    expect((decoded.get('d') as Tag).value).toBe('2024-01-01');
    expect(decodeWalletCbor(hex('c074323032342d30312d30315430303a30303a30305a'))).toEqual(new Date('2024-01-01T00:00:00Z'));
    expect(decodeWalletCbor(hex('9f0102ff'))).toEqual([1, 2]);
    expect(decodeWalletCbor(hex('bf6161 01ff'.replace(' ', '')))).toEqual(new Map([['a', 1]]));
  });

  it('refuses shared references (tags 28/29) that cbor-x would resolve into one object reached many times', () => {
    // [shareable([1]), sharedref(0)]: plain cbor-x returns the same array twice.
    expect(() => decodeWalletCbor(hex('82d81c8101d81d00'))).toThrow(/tag 28/);
    expect(() => decodeWalletCbor(hex('d81d00'))).toThrow(/tag 29/);
    // What cbor-x's own structuredClone encoder emits for a repeated value.
    const item = new Tag(new Uint8Array(10), 24);
    const cloned = new Encoder({ structuredClone: true, useRecords: false, mapsAsObjects: false }).encode([item, item]);
    expect(() => decodeWalletCbor(cloned)).toThrow(WalletCborRefused);
  });

  it.each([
    ['packed table (51)', 'd833840000f6f6'],
    ['packed reference (6)', 'c600'],
    ['packed prefix range (225)', 'd8e16161'],
    ['legacy record (105)', 'd869820001'],
    ['record definition (0xdfff)', 'd9dfff83190000816161'],
    ['bundled strings (0xdff9)', 'd9dff980'],
    ['generic object / Error (27)', 'd81b826545727272f46178'],
    ['set (258)', 'd9010280'],
    ['map (259)', 'd90103a0'],
    ['float typed array (85)', 'd85540'],
    ['packed simple value', 'f0'],
    ['one-byte simple value', 'f820'],
  ])('refuses cbor-x extension: %s', (_label, bytes) => {
    expect(() => decodeWalletCbor(hex(bytes))).toThrow(WalletCborRefused);
  });

  it.each([
    ['a byte string longer than the input', '5a7fffffff00'],
    ['a text string longer than the input', '7b000000010000000000'],
    ['an array longer than the input', '9a7fffffff00'],
    ['a map longer than the input', 'ba0000ffff0000'],
    ['an 8-byte length', '5bffffffffffffffff'],
    ['an indefinite byte string', '5f4101ff'],
    ['an unterminated indefinite array', '9f0101'],
    ['an indefinite map with a dangling key', 'bf01ff'],
    ['a stray break', 'ff'],
    ['trailing bytes', '0101'],
    ['reserved additional information', '1c'],
    ['tag 24 around a non-byte-string', 'd81801'],
    ['tag 0 around a number', 'c001'],
    ['a huge bignum', `c25900ff${'01'.repeat(255)}`],
  ])('refuses %s before allocating', (_label, bytes) => {
    expect(() => decodeWalletCbor(hex(bytes))).toThrow(WalletCborRefused);
  });

  it('refuses nesting deeper than 64', () => {
    expect(() => decodeWalletCbor(hex(`${'81'.repeat(65)}00`))).toThrow(/too deep/);
    expect(decodeWalletCbor(hex(`${'81'.repeat(64)}00`))).toBeDefined();
  });

  it('charges each item to the budget and stops when it runs out', () => {
    const budget = new CborBudget(1_000);
    decodeWalletCbor(cbor.encode([1, 2, 3]), budget);
    expect(budget.used).toBe(5); // 4 items + 1 unit for the bytes
    expect(() => decodeWalletCbor(cbor.encode(new Array(2_000).fill(0)), budget)).toThrow(CborBudgetExceeded);
  });
});
