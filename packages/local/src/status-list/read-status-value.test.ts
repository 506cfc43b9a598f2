import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodeStatusList } from '@vp-authorizer/testing';
import { decodeStatusList, readStatusValue } from './read-status-value.js';
import { StatusListError } from './status-list-error.js';

const lst = (bytes: Uint8Array | number[]) => Buffer.from(deflateSync(Uint8Array.from(bytes))).toString('base64url');

describe('status list decoding', () => {
  it('reads bits LSB-first (Token Status List example: bits 1, 0xB9 0xA3)', () => {
    // Spec example: status[0]=1, [1]=0, [2]=0, [3]=1, [4]=1, [5]=1, [6]=0, [7]=1, [8]=1, [9]=1, [10]=0, ...
    const list = decodeStatusList({ bits: 1, lst: lst([0xb9, 0xa3]) });
    expect(Array.from({ length: 16 }, (_, i) => readStatusValue(list, i))).toEqual([1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1]);
  });

  it('reads 2-, 4- and 8-bit entries', () => {
    for (const bits of [2, 4, 8] as const) {
      const values = [0, 1, 2, 3, 1, 0, 2];
      const list = decodeStatusList({ bits, lst: encodeStatusList(values, bits) });
      expect(values.map((_, i) => readStatusValue(list, i))).toEqual(values);
    }
  });

  it('rejects invalid bits, bad lst and an out-of-range index', () => {
    expect(() => decodeStatusList({ bits: 3, lst: lst([0]) })).toThrow(StatusListError);
    expect(() => decodeStatusList({ bits: 1, lst: 'AAAA' })).toThrow(/zlib/);
    expect(() => readStatusValue(decodeStatusList({ bits: 8, lst: lst([0, 0]) }), 2)).toThrow(/outside/);
    expect(() => readStatusValue(decodeStatusList({ bits: 8, lst: lst([0, 0]) }), -1)).toThrow(/non-negative/);
  });
});
