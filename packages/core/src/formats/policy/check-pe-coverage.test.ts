import { describe, expect, it } from 'vitest';
import type { PresentationDefinition } from '../../model/authorization-record.js';
import { checkPeCoverage } from './check-pe-coverage.js';

const covered = (definition: PresentationDefinition, ids: string[]) => checkPeCoverage(new Set(ids), definition) === undefined;

describe('checkPeCoverage', () => {
  const plain: PresentationDefinition = { id: 'pd', input_descriptors: [{ id: 'a' }, { id: 'b' }] };

  it('without submission_requirements, every input descriptor needs an entry', () => {
    expect(covered(plain, ['a', 'b'])).toBe(true);
    expect(covered(plain, ['a'])).toBe(false);
    expect(covered(plain, [])).toBe(false);
    expect(checkPeCoverage(new Set(['a']), plain)).toMatchObject({ code: 'format.query_not_covered', detail: expect.stringContaining('b') });
  });

  const grouped: PresentationDefinition = {
    id: 'pd',
    input_descriptors: [
      { id: 'a', group: ['G'] },
      { id: 'b', group: ['G'] },
      { id: 'c', group: ['H'] },
    ],
  };

  it.each([
    ['all of a group', [{ rule: 'all', from: 'G' }], ['a', 'b'], ['a']],
    ['pick count', [{ rule: 'pick', count: 1, from: 'G' }], ['b'], []],
    ['pick min', [{ rule: 'pick', min: 2, from: 'G' }], ['a', 'b'], ['a', 'c']],
    ['pick without bounds', [{ rule: 'pick', from: 'G' }], ['a'], ['c']],
    ['every top-level requirement', [{ rule: 'pick', count: 1, from: 'G' }, { rule: 'all', from: 'H' }], ['a', 'c'], ['a', 'b']],
    [
      'from_nested',
      [{ rule: 'pick', count: 1, from_nested: [{ rule: 'all', from: 'G' }, { rule: 'all', from: 'H' }] }],
      ['c'],
      ['a'],
    ],
  ])('with submission_requirements: %s', (_label, submission_requirements, enough, notEnough) => {
    const definition = { ...grouped, submission_requirements } as PresentationDefinition;
    expect(covered(definition, enough)).toBe(true);
    expect(covered(definition, notEnough)).toBe(false);
  });

  it('leaves upper bounds (max, exact count) to the validator', () => {
    expect(covered({ ...grouped, submission_requirements: [{ rule: 'pick', count: 1, from: 'G' }] }, ['a', 'b'])).toBe(true);
    expect(covered({ ...grouped, submission_requirements: [{ rule: 'pick', max: 1, from: 'G' }] }, [])).toBe(true);
  });

  it('fails closed on an unknown rule, a group with no members or runaway nesting', () => {
    expect(covered({ ...grouped, submission_requirements: [{ rule: 'any', from: 'G' }] }, ['a', 'b', 'c'])).toBe(false);
    expect(covered({ ...grouped, submission_requirements: [{ rule: 'all', from: 'Z' }] }, ['a', 'b', 'c'])).toBe(false);
    let nested: Record<string, unknown> = { rule: 'all', from: 'G' };
    for (let i = 0; i < 20; i++) nested = { rule: 'all', from_nested: [nested] };
    expect(covered({ ...grouped, submission_requirements: [nested] }, ['a', 'b', 'c'])).toBe(false);
  });
});
