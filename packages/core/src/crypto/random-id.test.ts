import { describe, expect, it } from 'vitest';
import { randomId } from './secrets.js';

describe('randomId', () => {
  it('gives base64url identifiers of the asked length, all distinct across pool refills', () => {
    const seen = new Set<string>();
    // 4 KiB pool: 2,000 ids of 32 bytes cross about sixteen refills.
    for (let i = 0; i < 2_000; i++) {
      const id = randomId(32);
      expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
      seen.add(id);
    }
    for (let i = 0; i < 500; i++) seen.add(randomId());
    expect(seen.size).toBe(2_500);
    expect(randomId(8)).toMatch(/^[A-Za-z0-9_-]{11}$/);
  });

  it('never hands out zeroed (already used) bytes', () => {
    const zeros = Buffer.alloc(16).toString('base64url');
    for (let i = 0; i < 1_000; i++) expect(randomId(16)).not.toBe(zeros);
  });

  it('serves sizes larger than a quarter of the pool directly', () => {
    const id = randomId(2_048);
    expect(Buffer.from(id, 'base64url')).toHaveLength(2_048);
    expect(new Set(Buffer.from(id, 'base64url')).size).toBeGreaterThan(200);
  });
});
