import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { commonResolveBody, resolveResponseCodeBodySchema } from './resolve-response-code.js';

/** JSON with undefined members and key order kept. */
const ordered = (value: unknown): string => JSON.stringify(value, (_key, member: unknown) => (member === undefined ? '<undefined>' : member));

const VALUES: unknown[] = [undefined, null, '', 'c', 'x'.repeat(512), 'x'.repeat(513), 0, 1, true, [], ['c'], {}, { a: 'c' }];

describe('commonResolveBody', () => {
  it('accepts only bodies the schema accepts, and then gives exactly its output', () => {
    let accepted = 0;
    const bodies: unknown[] = [null, [], 'text', 1, ['c']];
    for (const code of [...VALUES, 'absent']) {
      for (const id of [...VALUES, 'absent']) {
        const body: Record<string, unknown> = { other: 1 };
        if (code !== 'absent') body.response_code = code;
        if (id !== 'absent') body.authorization_id = id;
        bodies.push(body);
      }
    }
    for (const body of bodies) {
      const fast = commonResolveBody(body);
      const schema = v.safeParse(resolveResponseCodeBodySchema, body);
      if (fast === undefined) continue;
      expect(schema.success, ordered(body)).toBe(true);
      expect(ordered(fast), ordered(body)).toBe(ordered(schema.output));
      accepted++;
    }
    expect(accepted).toBe(8);
  });

  it('handles the usual bodies itself', () => {
    expect(commonResolveBody({ response_code: 'c' })).toEqual({ response_code: 'c' });
    expect(commonResolveBody({ response_code: 'c', authorization_id: 'a' })).toEqual({ response_code: 'c', authorization_id: 'a' });
  });

  it('returns only what it checked, even from an object whose members change between reads', () => {
    let reads = 0;
    const body = Object.defineProperty({}, 'response_code', { get: () => (reads++ === 0 ? 'c' : 'x'.repeat(100_000)), enumerable: true });
    expect(commonResolveBody(body)).toEqual({ response_code: 'c' });
  });
});
