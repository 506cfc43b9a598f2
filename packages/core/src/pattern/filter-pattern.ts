import { RegExpParser, type AST } from '@eslint-community/regexpp';
import { RE2JS } from 're2js';
import { MAX_DEFINITION_PATTERN_PROGRAM } from './filter-pattern-limits.js';

/**
 * JSON Schema `pattern` (a Presentation Exchange filter's) on a linear-time engine. A pattern is
 * ECMA-262 syntax with the `u` flag, as JSON Schema says; it is parsed as such (regexpp) and
 * written out in RE2 syntax for re2js, which matches in time linear in the input. What a
 * backtracking engine needs (backreferences, lookahead, lookbehind) is refused. Everything the
 * two dialects read differently is written out explicitly, so the RE2 program means what the
 * ECMA-262 pattern means: every character as a `\x{…}` escape, `.` as "not a line terminator",
 * `\s` as ECMA-262's whitespace and line terminators, groups as non-capturing groups.
 */

/** A pattern compiled for the linear-time engine. */
export interface FilterPattern {
  readonly source: string;
  /** Size of the RE2 program: the engine's cost per input character is proportional to it. */
  readonly programSize: number;
  /** Whether the pattern matches somewhere in `value` (as `RegExp.prototype.test` would). */
  test(value: string): boolean;
}

export type CompiledFilterPattern = { ok: true; pattern: FilterPattern } | { ok: false; reason: string };

class Unsupported extends Error {}

const parser = new RegExpParser({ ecmaVersion: 2024 });
const MAX_CODE_POINT = 0x10ffff;
type Ranges = readonly (readonly [number, number])[];

/** ECMA-262 WhiteSpace and LineTerminator: what `\s` matches there (RE2's `\s` is ASCII only). */
const ECMA_SPACE: Ranges = [[0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff]];
/** ECMA-262 LineTerminator: what `.` does not match (RE2's `.` excludes only `\n`). */
const LINE_TERMINATORS: Ranges = [[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]];

const hex = (codePoint: number): string => `\\x{${codePoint.toString(16)}}`;
const rangeText = (ranges: Ranges): string => ranges.map(([from, to]) => (from === to ? hex(from) : `${hex(from)}-${hex(to)}`)).join('');

function complement(ranges: Ranges): Ranges {
  const out: [number, number][] = [];
  let next = 0;
  for (const [from, to] of ranges) {
    if (from > next) out.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

/** `\p{…}`: general categories (short names) and scripts, which RE2 names alike; other properties are refused. */
function property(set: AST.UnicodePropertyCharacterSet, inClass: boolean): string {
  const { key, value, negate } = set;
  if ((key === 'General_Category' || key === 'gc' || key === 'Script' || key === 'sc') && value !== null) return `\\${negate ? 'P' : 'p'}{${value}}`;
  if (key === 'Any' && value === null) return `\\${negate ? 'P' : 'p'}{Any}`;
  if (key === 'ASCII' && value === null) {
    const ranges = rangeText(negate ? complement([[0, 0x7f]]) : [[0, 0x7f]]);
    return inClass ? ranges : `[${ranges}]`;
  }
  throw new Unsupported(`the Unicode property ${set.raw} is not supported (general categories and scripts are)`);
}

/** A character set (`.`, `\d`, `\s`, `\w`, `\p{…}`) inside a class (`inClass`) or on its own. */
function characterSet(set: AST.CharacterSet, inClass: boolean): string {
  switch (set.kind) {
    case 'any':
      return `[^${rangeText(LINE_TERMINATORS)}]`;
    case 'digit':
      return set.negate ? '\\D' : '\\d';
    case 'word':
      return set.negate ? '\\W' : '\\w';
    case 'space': {
      const ranges = rangeText(set.negate ? complement(ECMA_SPACE) : ECMA_SPACE);
      return inClass ? ranges : `[${ranges}]`;
    }
    case 'property':
      if (set.strings) throw new Unsupported(`the property of strings ${set.raw} is not supported`);
      return property(set, inClass);
  }
}

function characterClass(node: AST.CharacterClass): string {
  if (node.unicodeSets) throw new Unsupported('set notation (the v flag) is not supported');
  if (node.elements.length === 0) return node.negate ? `[${rangeText([[0, MAX_CODE_POINT]])}]` : `[^${rangeText([[0, MAX_CODE_POINT]])}]`;
  const parts = node.elements.map((element) => {
    if (element.type === 'Character') return hex(element.value);
    if (element.type === 'CharacterClassRange') return `${hex(element.min.value)}-${hex(element.max.value)}`;
    return characterSet(element, true);
  });
  return `[${node.negate ? '^' : ''}${parts.join('')}]`;
}

function quantifier(node: AST.Quantifier): string {
  const { min, max } = node;
  let count: string;
  if (min === 0 && max === Infinity) count = '*';
  else if (min === 1 && max === Infinity) count = '+';
  else if (min === 0 && max === 1) count = '?';
  else if (min === max) count = `{${min}}`;
  else count = max === Infinity ? `{${min},}` : `{${min},${max}}`;
  // Every quantifiable element is written as one atom (an escape, a class or a group): no wrapper
  // needed, and RE2 compiles a bare class under a counted repetition far faster than a wrapped one.
  return `${element(node.element)}${count}${node.greedy ? '' : '?'}`;
}

function element(node: AST.Element | AST.QuantifiableElement): string {
  switch (node.type) {
    case 'Character':
      return hex(node.value);
    case 'CharacterSet':
      return characterSet(node, false);
    case 'CharacterClass':
      return characterClass(node);
    case 'Quantifier':
      return quantifier(node);
    case 'Group':
    case 'CapturingGroup':
      return `(?:${alternatives(node.alternatives)})`;
    case 'Backreference':
      throw new Unsupported(`the backreference ${node.raw} needs a backtracking engine`);
    case 'Assertion':
      if (node.kind === 'start') return '^';
      if (node.kind === 'end') return '$';
      if (node.kind === 'word') return node.negate ? '\\B' : '\\b';
      throw new Unsupported(`the ${node.kind} ${node.raw} needs a backtracking engine`);
    default:
      throw new Unsupported(`${node.raw} is not supported`);
  }
}

const alternatives = (list: readonly AST.Alternative[]): string => list.map((alternative) => alternative.elements.map(element).join('')).join('|');

/**
 * An upper bound of the RE2 program size, from the syntax tree: RE2 writes a counted repetition
 * out (`x{2,5}` is `xx` and three optional `x`), so a short pattern can compile to a program of
 * tens of thousands of instructions, which takes a good part of a second to compile. Estimated
 * first, such a pattern is refused before the engine compiles anything.
 */
function programEstimate(node: AST.Alternative | AST.Element): number {
  switch (node.type) {
    case 'Alternative':
      return node.elements.reduce((sum, e) => sum + programEstimate(e), 0);
    case 'Group':
    case 'CapturingGroup':
      return node.alternatives.reduce((sum, a) => sum + programEstimate(a), 0) + node.alternatives.length - 1;
    case 'Quantifier': {
      const inner = programEstimate(node.element);
      return node.max === Infinity ? (node.min + 1) * inner + 1 : node.max * inner + (node.max - node.min);
    }
    default:
      return 1;
  }
}

/** The pattern in RE2 syntax (with an upper bound of its program size), or why it cannot be run in linear time. */
export function toRe2Syntax(source: string): { ok: true; re2: string; estimate: number } | { ok: false; reason: string } {
  let ast: AST.Pattern;
  try {
    ast = parser.parsePattern(source, 0, source.length, { unicode: true });
  } catch (error) {
    return { ok: false, reason: `not an ECMA-262 regular expression (${(error as Error).message.replace(/^Invalid regular expression: /, '')})` };
  }
  try {
    const estimate = ast.alternatives.reduce((sum, a) => sum + programEstimate(a), 0) + ast.alternatives.length - 1;
    return { ok: true, re2: alternatives(ast.alternatives), estimate };
  } catch (error) {
    if (error instanceof Unsupported) return { ok: false, reason: error.message };
    throw error;
  }
}

/**
 * Compile a JSON Schema `pattern` for the linear-time engine; `reason` says why it cannot be.
 * A pattern whose program would exceed `maxProgram` instructions is refused (before compiling,
 * when its estimate already does).
 */
export function compileFilterPattern(source: string, maxProgram: number = MAX_DEFINITION_PATTERN_PROGRAM): CompiledFilterPattern {
  const translated = toRe2Syntax(source);
  if (!translated.ok) return translated;
  const tooLarge = (size: number): CompiledFilterPattern => ({ ok: false, reason: `its RE2 program has ${size} instructions, more than the ${maxProgram} allowed (counted repetitions are written out)` });
  if (translated.estimate > maxProgram) return tooLarge(translated.estimate);
  let re: RE2JS;
  try {
    re = RE2JS.compile(translated.re2);
  } catch (error) {
    // RE2's refusals: a repetition count over 1000, a program too large, an unknown property.
    // Its message quotes the RE2 text, which names characters as \x{…}: quoted only when it does not.
    const message = (error as Error).message.replace(/^error parsing regexp: /, '');
    const readable = /\\x\{/.test(message) ? message.replace(/:?\s*`[^`]*`$/, '') : message;
    return { ok: false, reason: `the linear-time engine cannot run it (${readable})` };
  }
  const programSize = re.programSize();
  if (programSize > maxProgram) return tooLarge(programSize);
  return { ok: true, pattern: { source, programSize, test: (value) => re.test(value) } };
}
