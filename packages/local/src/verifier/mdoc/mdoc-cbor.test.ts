import { CborBudget, CborBudgetExceeded, WalletCborRefused } from '@vp-authorizer/core/formats';
import { Decoder, Encoder, Tag } from 'cbor-x';
import { describe, expect, it } from 'vitest';
import { decodeCbor, encodeCbor } from './mdoc-cbor.js';

describe('decodeCbor (local mdoc verifier)', () => {
  it('round-trips what the verifier re-encodes: maps with integer keys and tag-24 bytes kept as received', () => {
    const value = new Map<unknown, unknown>([[1, -7], ['t', new Tag(new Uint8Array([0xa0]), 24)]]);
    const decoded = decodeCbor(encodeCbor(value)) as Map<unknown, unknown>;
    expect(decoded.get(1)).toBe(-7);
    expect((decoded.get('t') as Tag).value).toEqual(new Uint8Array([0xa0]));
  });

  it('refuses shared references that plain cbor-x resolves into one object (amplification in the verifier)', () => {
    const item = new Tag(new Uint8Array(64), 24);
    const shared = new Encoder({ structuredClone: true, useRecords: false, mapsAsObjects: false }).encode([item, item, item]);
    const plain = new Decoder({ mapsAsObjects: false, useRecords: false }).decode(shared) as unknown[];
    expect(plain[0]).toBe(plain[2]); // what the old decoder handed the verifier
    expect(() => decodeCbor(shared)).toThrow(WalletCborRefused);
  });

  it('refuses cbor-x records and packed values', () => {
    expect(() => decodeCbor(Buffer.from('d9dfff83190000816161', 'hex'))).toThrow(WalletCborRefused);
    expect(() => decodeCbor(Buffer.from('d833840000f6f6', 'hex'))).toThrow(WalletCborRefused);
  });

  it('charges the budget it is given', () => {
    expect(() => decodeCbor(encodeCbor(new Array(100).fill(0)), new CborBudget(50))).toThrow(CborBudgetExceeded);
  });
});
