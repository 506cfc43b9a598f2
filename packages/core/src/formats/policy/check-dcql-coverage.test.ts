import { describe, expect, it } from 'vitest';
import { checkDcqlCoverage } from './check-dcql-coverage.js';

const q = (ids: string[], sets?: { options: string[][]; required?: boolean }[]) => ({ credentials: ids.map((id) => ({ id, format: 'dc+sd-jwt' })), ...(sets ? { credential_sets: sets } : {}) });

describe('checkDcqlCoverage', () => {
  it('without credential_sets every query id must be present', () => {
    expect(checkDcqlCoverage(new Set(['a', 'b']), q(['a', 'b']))).toBeUndefined();
    expect(checkDcqlCoverage(new Set(['a']), q(['a', 'b']))?.code).toBe('format.query_not_covered');
    expect(checkDcqlCoverage(new Set(), q(['a']))?.code).toBe('format.query_not_covered');
  });

  it('with credential_sets each required set needs one complete option; optional sets may be absent', () => {
    const query = q(['pid', 'other_pid', 'r1', 'r2', 'nice'], [
      { options: [['pid'], ['other_pid'], ['r1', 'r2']] },
      { options: [['nice']], required: false },
    ]);
    expect(checkDcqlCoverage(new Set(['pid']), query)).toBeUndefined();
    expect(checkDcqlCoverage(new Set(['r1', 'r2']), query)).toBeUndefined();
    expect(checkDcqlCoverage(new Set(['r1']), query)?.code).toBe('format.query_not_covered');
    expect(checkDcqlCoverage(new Set(['nice']), query)?.code).toBe('format.query_not_covered');
  });
});
