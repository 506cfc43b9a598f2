import { MatchBudget, MatchBudgetExceeded } from '../match-budget.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FilterPatterns } from './filter-patterns.js';
import { matchesFilter, unsupportedFilterKeyword } from './json-schema-filter.js';

const patterns = () => new FilterPatterns();

describe('JSON Schema filter subset', () => {
  it.each([
    [{ type: 'string' }, 'x', true],
    [{ type: 'string' }, 1, false],
    [{ type: 'integer' }, 1.5, false],
    [{ type: ['number', 'null'] }, null, true],
    [{ const: 'DE' }, 'DE', true],
    [{ const: 'DE' }, 'AT', false],
    [{ enum: ['DE', 'AT'] }, 'AT', true],
    [{ enum: [1, 2] }, '1', false],
    [{ pattern: '^did:example:' }, 'did:example:123', true],
    [{ pattern: '^did:example:' }, 'did:other:1', false],
    [{ minimum: 18 }, 17, false],
    [{ maximum: 18, exclusiveMinimum: 10 }, 10, false],
    [{ minLength: 2, maxLength: 3 }, 'abcd', false],
    [{ minLength: 2 }, 'ab', true],
    [{ type: 'array', contains: { const: 'Diploma' } }, ['VC', 'Diploma'], true],
    [{ type: 'array', contains: { const: 'Diploma' } }, ['VC'], false],
    [{ items: { type: 'string' }, minItems: 1 }, ['a', 2], false],
    [{ not: { const: 'revoked' } }, 'revoked', false],
    [{ type: 'string', format: 'date', formatMaximum: '2007-01-01' }, '2000-05-01', true],
    [{ type: 'string', format: 'date', formatMaximum: '2007-01-01' }, '2010-05-01', false],
    [{ type: 'string', format: 'date' }, 'not a date', false],
  ])('%j on %j → %s', (schema, value, expected) => {
    const p = patterns();
    expect(unsupportedFilterKeyword(schema, p)).toBeUndefined();
    expect(matchesFilter(value, schema, p)).toBe(expected);
  });

  it('fails closed on keywords it does not evaluate', () => {
    const p = patterns();
    expect(unsupportedFilterKeyword({ type: 'object', properties: { a: {} } }, p)).toBe('filter.properties');
    expect(unsupportedFilterKeyword({ format: 'email' }, p)).toBe('filter.format');
    expect(unsupportedFilterKeyword({ items: { $ref: '#/x' } }, p)).toBe('filter.items.$ref');
    expect(unsupportedFilterKeyword({ minimum: '18' }, p)).toBe('filter.minimum');
    expect(unsupportedFilterKeyword({ format: 'date', formatMinimum: 'yesterday' }, p)).toBe('filter.formatMinimum');
    expect(unsupportedFilterKeyword({ pattern: '(' }, p)).toBe('filter.pattern');
    expect(unsupportedFilterKeyword({ title: 't', description: 'd', type: 'string' }, p)).toBeUndefined();
  });

  it('fails closed on patterns the linear-time engine cannot run', () => {
    const p = patterns();
    expect(unsupportedFilterKeyword({ pattern: '^(a)\\1$' }, p)).toBe('filter.pattern');
    expect(unsupportedFilterKeyword({ pattern: '^(?=a)' }, p)).toBe('filter.pattern');
    expect(unsupportedFilterKeyword({ not: { pattern: '(?<!a)b' } }, p)).toBe('filter.not.pattern');
    expect(unsupportedFilterKeyword({ pattern: 'a{1001}' }, p)).toBe('filter.pattern');
  });
});

describe('JSON Schema pattern on wallet strings', () => {
  afterEach(() => vi.restoreAllMocks());

  it('never hands a wallet string to the backtracking RegExp engine', () => {
    const p = patterns();
    const schema = { type: 'string', pattern: '^(\\w+\\s?)*$' };
    expect(unsupportedFilterKeyword(schema, p)).toBeUndefined();
    const calls = [vi.spyOn(RegExp.prototype, 'exec'), vi.spyOn(RegExp.prototype, 'test'), vi.spyOn(RegExp.prototype, Symbol.match)];
    expect(matchesFilter('Erika Mustermann', schema, p)).toBe(true);
    expect(matchesFilter(`${'a'.repeat(26)}!`, schema, p)).toBe(false);
    for (const spy of calls) expect(spy).not.toHaveBeenCalled();
  });

  // On a backtracking engine the first holds the event loop about a second and each added
  // character doubles that; the second about 40 s (cubic in the run of digits).
  it.each([
    ['^(\\w+\\s?)*$', `${'a'.repeat(26)}!`, false],
    ['^(\\w+\\s?)*$', `${'a'.repeat(4_095)}!`, false],
    ['^\\d+\\s*\\d+\\s*\\d+$', `${'1'.repeat(4_095)}x`, false],
    ['^\\d+\\s*\\d+\\s*\\d+$', '1'.repeat(4_096), true],
  ])('%s on %#: answered by the linear-time engine (%s)', (pattern, value, expected) => {
    expect(matchesFilter(value, { type: 'string', pattern }, patterns())).toBe(expected);
  });

  it('values longer than 4,096 characters do not match', () => {
    expect(matchesFilter('a'.repeat(4_096), { pattern: '^a+$' }, patterns())).toBe(true);
    expect(matchesFilter('a'.repeat(4_097), { pattern: '^a+$' }, patterns())).toBe(false);
  });

  it('a value too long to test fails the whole filter, at any depth: no not turns it into a pass', () => {
    const long = 'a'.repeat(4_097);
    expect(matchesFilter(long, { not: { pattern: '^b$' } }, patterns())).toBe(false);
    expect(matchesFilter(long, { not: { not: { not: { pattern: '^b$' } } } }, patterns())).toBe(false);
    expect(matchesFilter([long], { not: { items: { pattern: '^b$' } } }, patterns())).toBe(false);
    expect(matchesFilter([long], { not: { contains: { pattern: '^a+$' } } }, patterns())).toBe(false);
    expect(matchesFilter([long], { items: { not: { pattern: '^b$' } } }, patterns())).toBe(false);
    // The same filters still pass a value short enough to test.
    expect(matchesFilter('a'.repeat(4_096), { not: { pattern: '^b$' } }, patterns())).toBe(true);
    expect(matchesFilter(['a'], { items: { not: { pattern: '^b$' } } }, patterns())).toBe(true);
  });

  it('every test is charged to one budget; once spent, evaluation stops, even under not', () => {
    // '^a+$' compiles to a handful of instructions: 4,097 characters cost a few ten thousand units.
    const p = new FilterPatterns(new MatchBudget(100_000));
    const schema = { pattern: '^a+$' };
    let tested = 0;
    expect(() => {
      for (;;) {
        matchesFilter('a'.repeat(4_096), schema, p);
        tested++;
      }
    }).toThrow(MatchBudgetExceeded);
    expect(tested).toBeGreaterThan(0);
    expect(() => matchesFilter('b', { not: schema }, p)).toThrow(MatchBudgetExceeded);
  });
});
