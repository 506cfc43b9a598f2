import { describe, expect, it } from 'vitest';
import { randomId } from './secrets.js';

describe('randomId', () => {
  it('gives distinct base64url identifiers of the asked length', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const id = randomId(32);
      expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
      seen.add(id);
    }
    for (let i = 0; i < 500; i++) seen.add(randomId());
    expect(seen.size).toBe(2_500);
    expect(randomId()).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(randomId(8)).toMatch(/^[A-Za-z0-9_-]{11}$/);
  });
});
