import { describe, expect, it } from 'vitest';
import { matchesFilter, unsupportedFilterKeyword } from './json-schema-filter.js';

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
    expect(unsupportedFilterKeyword(schema)).toBeUndefined();
    expect(matchesFilter(value, schema)).toBe(expected);
  });

  it('fails closed on keywords it does not evaluate', () => {
    expect(unsupportedFilterKeyword({ type: 'object', properties: { a: {} } })).toBe('filter.properties');
    expect(unsupportedFilterKeyword({ format: 'email' })).toBe('filter.format');
    expect(unsupportedFilterKeyword({ items: { $ref: '#/x' } })).toBe('filter.items.$ref');
    expect(unsupportedFilterKeyword({ minimum: '18' })).toBe('filter.minimum');
    expect(unsupportedFilterKeyword({ format: 'date', formatMinimum: 'yesterday' })).toBe('filter.formatMinimum');
    expect(unsupportedFilterKeyword({ pattern: '(' })).toBe('filter.pattern');
    expect(unsupportedFilterKeyword({ title: 't', description: 'd', type: 'string' })).toBeUndefined();
  });
});
