import { describe, expect, it } from 'vitest';
import { RecordFormatError } from '@vp-authorizer/redis';
import { decodeCode, encodeCode } from '../src/record-codec.js';

const AWKWARD = ['', 'i1', 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d', '"', '\\', '\\"', '\n', '\u0000', '\u001f', '\u007f', 'é', '\ud83d\ude00', '\ud800', '","authorizationId":"', '"}}', '{"v":1,"c":{"instanceId":"', 'a"b', 'x'.repeat(300)];

describe('decodeCode', () => {
  it('reads back every entry it wrote, whatever its strings hold', () => {
    for (const instanceId of AWKWARD) {
      for (const authorizationId of AWKWARD) {
        const entry = { instanceId, authorizationId };
        expect(decodeCode(encodeCode(entry))).toEqual(entry);
      }
    }
  });

  it('reads codes written with another member order or extra members, and refuses a newer format or a broken value', () => {
    expect(decodeCode('{"v":1,"c":{"authorizationId":"a1","instanceId":"i1"}}')).toEqual({ instanceId: 'i1', authorizationId: 'a1' });
    expect(decodeCode('{"v":1,"c":{"instanceId":"i\\u0031","authorizationId":"a1","x":1}}')).toEqual({ instanceId: 'i1', authorizationId: 'a1' });
    expect(() => decodeCode('{"v":2,"c":{"instanceId":"i1","authorizationId":"a1"}}')).toThrow(RecordFormatError);
    expect(() => decodeCode('{"v":1,"c":{"instanceId":"i1"}}')).toThrow(RecordFormatError);
    expect(() => decodeCode(encodeCode({ instanceId: 'i1', authorizationId: 'a1' }).slice(0, -1))).toThrow(RecordFormatError);
  });
});
