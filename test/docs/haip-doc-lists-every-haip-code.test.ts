// docs/haip.md lists every HAIP code of the one code table, and names no code the table lacks.
import { readFileSync } from 'node:fs';
import { CODES } from '@vp-authorizer/core';
import { describe, expect, it } from 'vitest';

const page = readFileSync(new URL('../../docs/haip.md', import.meta.url), 'utf8');
const codes = Object.keys(CODES);
const namespaces = new Set(codes.map((c) => c.split('.')[0]!));

describe('docs/haip.md', () => {
  it('lists every HAIP code of CODES', () => {
    const haipCodes = codes.filter((c) => c.startsWith('haip.') || c.includes('haip'));
    expect(haipCodes.length).toBeGreaterThanOrEqual(8);
    expect(haipCodes.filter((c) => !page.includes(`\`${c}\``))).toEqual([]);
  });

  it('names only codes that exist', () => {
    const named = [...page.matchAll(/`([a-z_]+\.[a-z_]+)`/g)].map((m) => m[1]!).filter((t) => namespaces.has(t.split('.')[0]!));
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((c) => !codes.includes(c))).toEqual([]);
  });
});
