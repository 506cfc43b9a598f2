import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compileFilterPattern, toRe2Syntax, type FilterPattern } from './filter-pattern.js';

const compiled = (source: string): FilterPattern => {
  const result = compileFilterPattern(source);
  if (!result.ok) throw new Error(`${source}: ${result.reason}`);
  return result.pattern;
};
const refusal = (source: string): string => {
  const result = compileFilterPattern(source);
  if (result.ok) throw new Error(`${source} was accepted`);
  return result.reason;
};

// Patterns of the supported subset, among them every construct the two dialects read differently.
const PATTERNS = [
  '^did:example:',
  '^[A-Z]{2}$',
  '^\\d{4}-\\d{2}-\\d{2}$',
  '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$',
  '^(\\w+\\s?)*$',
  '^\\d+\\s*\\d+\\s*\\d+$',
  '^\\S+$',
  '^[\\s\\d]+$',
  '^[^\\S]$',
  '^.$',
  '^.+$',
  '^[^]$',
  '^[]',
  '^[[:a]+$',
  '^\\p{L}+$',
  '^\\P{Lu}*$',
  '^\\p{Script=Greek}+$',
  '^[\\p{N}-]+$',
  '^\\p{ASCII}+$',
  '^\\P{ASCII}+$',
  '^\\p{Any}$',
  '\\bword\\b',
  'a\\B',
  '^(?:ab|cd){1,3}?$',
  '^(?<name>x)y+?$',
  '^\\u{1F600}$',
  '^\\uD83D\\uDE00$',
  '^\\x41\\cJ\\0\\t\\v\\f$',
  '^\\/\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\^\\$\\\\$',
  '(?:)',
  'a|',
];
// Characters where the dialects differ: ECMA-262 whitespace outside ASCII, line terminators,
// a surrogate pair, a lone surrogate, letters of several scripts, the POSIX-looking punctuation.
const ALPHABET = ['a', 'b', 'Z', 'x', 'y', 'w', 'o', 'r', 'd', '1', '9', '-', '@', '.', ' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u2028', '\u2029', '\ufeff', '\u3000', '\u1680', 'é', 'Ω', 'λ', '😀', '\ud800', ':', '[', ']', '\u0000', '/', '*', '\\', '$', '^'];

describe('compileFilterPattern: ECMA-262 patterns on a linear-time engine', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each(PATTERNS)('%s answers what RegExp (u flag) answers, on any string', (source) => {
    const pattern = compiled(source);
    const ecma = new RegExp(source, 'u');
    const samples = ['', 'did:example:1', 'DE', '2020-01-31', 'a@b.c', 'Erika Mustermann', '12 34 56', 'word', 'ΩΩ', '😀', 'x\n', '/.*+?()[]{}|^$\\'];
    for (const value of samples) expect(pattern.test(value), JSON.stringify(value)).toBe(ecma.test(value));
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ALPHABET), { maxLength: 12 }), (chars) => {
        const value = chars.join('');
        expect(pattern.test(value), JSON.stringify(value)).toBe(ecma.test(value));
      }),
      { numRuns: 300 },
    );
  });

  it('runs on its own engine: RegExp never sees the value', () => {
    const pattern = compiled('^(\\w+\\s?)*$');
    const spies = [vi.spyOn(RegExp.prototype, 'exec'), vi.spyOn(RegExp.prototype, 'test'), vi.spyOn(RegExp.prototype, Symbol.match)];
    expect(pattern.test(`${'a'.repeat(4_095)}!`)).toBe(false);
    expect(pattern.test('a b c')).toBe(true);
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  it('writes every character as an escape: the RE2 text cannot be steered by the pattern text', () => {
    // RE2 would read [[:a:]] as a POSIX class; in ECMA-262 [[:a] is a class of three characters.
    expect(toRe2Syntax('[[:a]')).toMatchObject({ ok: true, re2: '[\\x{5b}\\x{3a}\\x{61}]' });
    expect(toRe2Syntax('(?P<n>a)').ok).toBe(false); // RE2 syntax, but no ECMA-262 under the u flag
  });

  it.each([
    ['^(a)\\1$', /backreference/],
    ['^(?<n>a)\\k<n>$', /backreference/],
    ['a(?=b)', /lookahead/],
    ['a(?!b)', /lookahead/],
    ['(?<=a)b', /lookbehind/],
    ['(?<!a)b', /lookbehind/],
    ['a{1001}', /RE2 program has 1001 instructions, more than the 1000 allowed/],
    ['((a{100}){100}){100}', /RE2 program has 1000000 instructions/],
    ['\\p{Letter}', /linear-time engine cannot run it/],
    ['\\p{Script_Extensions=Greek}', /not supported/],
    ['\\p{Alphabetic}', /not supported/],
    ['(', /not an ECMA-262 regular expression/],
    ['(?i)abc', /not an ECMA-262 regular expression/],
    ['(?P<n>a)', /not an ECMA-262 regular expression/],
    ['a{,3}', /not an ECMA-262 regular expression/],
    ['\\z', /not an ECMA-262 regular expression/],
  ])('refuses %s', (source, reason) => {
    expect(refusal(source)).toMatch(reason);
  });

  it('what RE2 itself refuses stays refused under a larger program limit', () => {
    const result = compileFilterPattern('a{1001}', 100_000);
    expect(result.ok ? 'accepted' : result.reason).toMatch(/linear-time engine cannot run it \(invalid repeat count/);
  });
});
