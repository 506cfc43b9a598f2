import { describe, expect, it } from 'vitest';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { parseCreateAuthorizationBody } from './create-authorization-body.js';
import { MAX_DEFINITION_PATTERN_LENGTH, MAX_DEFINITION_PATTERN_PROGRAM, MAX_DEFINITION_PATTERNS } from '../pattern/filter-pattern-limits.js';

const FIELDS = '/query/presentationDefinition/input_descriptors/0/constraints/fields';
const peBody = (filters: unknown[], extra: Record<string, unknown> = {}) => ({
  responseMode: 'direct_post',
  query: { type: 'DIF.PresentationExchange', presentationDefinition: { id: 'pd', input_descriptors: [{ id: 'pid', constraints: { fields: filters.map((filter) => ({ path: ['$.given_name'], filter })) } }] } },
  ...extra,
});
const refusalOf = (body: unknown): AuthorizerError => {
  try {
    parseCreateAuthorizationBody(body);
  } catch (error) {
    expect(error).toBeInstanceOf(AuthorizerError);
    return error as AuthorizerError;
  }
  throw new Error('the body was accepted');
};

describe('Presentation Exchange filter patterns at creation', () => {
  it('accepts patterns the linear-time engine runs', () => {
    const body = peBody([{ type: 'string', pattern: '^(\\w+\\s?)*$' }, { pattern: '^\\d+\\s*\\d+\\s*\\d+$' }, { type: 'array', contains: { pattern: '^\\p{L}{2}$' } }]);
    expect(parseCreateAuthorizationBody(body).query.type).toBe('DIF.PresentationExchange');
  });

  it('refuses a pattern that needs a backtracking engine: 400 request.unsupported_pattern naming its pointer', () => {
    const error = refusalOf(peBody([{ type: 'string' }, { type: 'string', pattern: '^(a+)\\1$' }]));
    expect(error.code).toBe('request.unsupported_pattern');
    expect(error.status).toBe(400);
    expect(error.errors).toEqual([{ pointer: `${FIELDS}/1/filter/pattern`, detail: expect.stringMatching(/backreference/), code: 'request.unsupported_pattern' }]);
  });

  it('finds patterns under every schema keyword, patternProperties names included, and names each', () => {
    const error = refusalOf(
      peBody([
        { not: { pattern: '(?=x)' } },
        { items: [{ pattern: 'ok' }, { pattern: '(?<=y)' }] },
        { properties: { 'a/b': { pattern: '\\k<n>(?<n>)' } }, patternProperties: { '(?!z)': {} } },
        { anyOf: [{ pattern: 1 }] },
      ]),
    );
    expect(error.errors?.map((e) => e.pointer)).toEqual([
      `${FIELDS}/0/filter/not/pattern`,
      `${FIELDS}/1/filter/items/1/pattern`,
      `${FIELDS}/2/filter/patternProperties/(?!z)`,
      `${FIELDS}/2/filter/properties/a~1b/pattern`,
      `${FIELDS}/3/filter/anyOf/0/pattern`,
    ]);
  });

  it('data is not a schema: a "pattern" member inside const, enum or examples is not checked', () => {
    expect(() => parseCreateAuthorizationBody(peBody([{ const: { pattern: '(?=x)' }, enum: [{ pattern: '\\1' }], examples: [{ pattern: '(' }] }]))).not.toThrow();
  });

  it('refuses the patterns of a definition past their number, total length or program size', () => {
    const many = refusalOf(peBody(Array.from({ length: MAX_DEFINITION_PATTERNS + 1 }, (_, i) => ({ pattern: `^${i}$` }))));
    expect(many.errors).toEqual([{ pointer: `${FIELDS}/${MAX_DEFINITION_PATTERNS}/filter/pattern`, detail: `a presentation definition may hold ${MAX_DEFINITION_PATTERNS} patterns`, code: 'request.unsupported_pattern' }]);

    const long = 'a'.repeat(300);
    const byLength = refusalOf(peBody(Array.from({ length: 4 }, () => ({ pattern: long }))));
    expect(MAX_DEFINITION_PATTERN_LENGTH).toBeLessThan(4 * 300);
    expect(byLength.errors).toEqual([{ pointer: `${FIELDS}/3/filter/pattern`, detail: expect.stringMatching(/1024 characters in total/), code: 'request.unsupported_pattern' }]);

    // '^[a-z]{0,300}…$' compiles to about 600 instructions: the second is more than a definition may add up to.
    const bySize = refusalOf(peBody(Array.from({ length: 2 }, (_, i) => ({ pattern: `^[a-z]{0,300}${i}$` }))));
    expect(bySize.errors).toEqual([{ pointer: `${FIELDS}/1/filter/pattern`, detail: expect.stringMatching(new RegExp(`of the ${MAX_DEFINITION_PATTERN_PROGRAM} instructions`)), code: 'request.unsupported_pattern' }]);
    // The same pattern repeated is compiled, and counted, once.
    expect(() => parseCreateAuthorizationBody(peBody(Array.from({ length: 5 }, () => ({ pattern: '^[a-z]{0,300}$' }))))).not.toThrow();
  });

  it('refuses a short pattern whose written-out repetitions make a huge program, without compiling it', () => {
    // Twenty characters, sixty thousand instructions once RE2 writes the counts out.
    const error = refusalOf(peBody([{ pattern: Array.from({ length: 60 }, (_, i) => `${String.fromCharCode(97 + (i % 26))}{1000}`).join('|') }]));
    expect(error.errors?.[0]?.detail).toMatch(/RE2 program has 6\d{4} instructions, more than the 1000 allowed/);
  });

  it('with other problems in the body: request.invalid_body listing them all, the pattern with its own code', () => {
    const error = refusalOf(peBody([{ pattern: '(?<!a)' }], { nonce: 'short' }));
    expect(error.code).toBe('request.invalid_body');
    expect(error.errors?.map((e) => [e.pointer, e.code])).toEqual([['/nonce', undefined]]);
    // The schema stops at the malformed nonce; a body whose shape holds lists the cross-field problems together.
    const mixed = refusalOf({ ...peBody([{ pattern: '(?<!a)' }]), transaction_data: [Buffer.from('{"type":"t","credential_ids":["nope"]}').toString('base64url')] });
    expect(mixed.code).toBe('request.invalid_body');
    expect(mixed.errors?.map((e) => e.code ?? null)).toEqual(expect.arrayContaining([null, 'request.unsupported_pattern']));
  });
});
