import { describe, expect, it } from 'vitest';
import { RecordFormatError } from '@vp-authorizer/redis';
import { decodeCode, encodeCode } from '../src/record-codec.js';

/** The entry JSON.parse reads from a stored code, or the error: what decodeCode must agree with. */
function byParser(raw: string): { entry: unknown } | { error: true } {
  try {
    const parsed = JSON.parse(raw) as { v?: unknown; c?: { instanceId?: unknown; authorizationId?: unknown } };
    const c = parsed?.c;
    if (parsed?.v !== 1 || typeof c !== 'object' || c === null || typeof c.instanceId !== 'string' || typeof c.authorizationId !== 'string') return { error: true };
    return { entry: { instanceId: c.instanceId, authorizationId: c.authorizationId } };
  } catch {
    return { error: true };
  }
}

function decoded(raw: string): { entry: unknown } | { error: true } {
  try {
    return { entry: decodeCode(raw) };
  } catch (error) {
    expect(error).toBeInstanceOf(RecordFormatError);
    return { error: true };
  }
}

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

  it('agrees with JSON.parse on every truncation, deletion and insertion of a stored code (the same entry, or a format error)', () => {
    let compared = 0;
    const seeds = [encodeCode({ instanceId: 'i1', authorizationId: 'a1' }), encodeCode({ instanceId: '', authorizationId: '' }), encodeCode({ instanceId: 'é"', authorizationId: 'x' })];
    for (const seed of seeds) {
      const variants = new Set<string>();
      for (let i = 0; i <= seed.length; i++) {
        variants.add(seed.slice(0, i));
        variants.add(seed.slice(i));
        if (i < seed.length) variants.add(seed.slice(0, i) + seed.slice(i + 1));
        for (const inserted of ['"', '\\', '}', ' ', '\n', 'x']) variants.add(seed.slice(0, i) + inserted + seed.slice(i));
      }
      for (const raw of variants) {
        expect(decoded(raw), JSON.stringify(raw)).toEqual(byParser(raw));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(500);
  });

  it('reads codes written with another member order or extra members through the parser', () => {
    expect(decodeCode('{"v":1,"c":{"authorizationId":"a1","instanceId":"i1"}}')).toEqual({ instanceId: 'i1', authorizationId: 'a1' });
    expect(decodeCode('{"v":1,"c":{"instanceId":"i\\u0031","authorizationId":"a1","x":1}}')).toEqual({ instanceId: 'i1', authorizationId: 'a1' });
    expect(() => decodeCode('{"v":2,"c":{"instanceId":"i1","authorizationId":"a1"}}')).toThrow(RecordFormatError);
  });
});
