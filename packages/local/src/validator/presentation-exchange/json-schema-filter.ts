import { FilterValueRefused, type FilterPatterns } from './filter-patterns.js';

/**
 * A small, safe JSON Schema evaluator for Presentation Exchange `filter`: type, const, enum,
 * pattern (on a linear-time engine, see FilterPatterns), minimum / maximum / exclusiveMinimum / exclusiveMaximum, minLength / maxLength,
 * minItems / maxItems, items (one schema), contains, not, and format date / date-time with
 * formatMinimum / formatMaximum / formatExclusiveMinimum / formatExclusiveMaximum (PE's date
 * predicates). Any other keyword makes the filter unsupported: ignoring a constraint would let
 * everything pass, so we fail closed.
 */
export type JsonSchema = Record<string, unknown>;

const ANNOTATIONS = new Set(['$schema', '$id', '$comment', 'title', 'description', 'examples', 'default']);
const KEYWORDS = new Set([
  'type', 'const', 'enum', 'pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength',
  'minItems', 'maxItems', 'items', 'contains', 'not', 'format', 'formatMinimum', 'formatMaximum', 'formatExclusiveMinimum', 'formatExclusiveMaximum',
]);
const FORMATS = new Set(['date', 'date-time']);
const NUMERIC = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems']);
const DATE_BOUNDS = ['formatMinimum', 'formatMaximum', 'formatExclusiveMinimum', 'formatExclusiveMaximum'];
const MAX_DEPTH = 16;

const isSchema = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The first unsupported keyword (dotted location), or undefined when the whole filter is evaluable. One unit of the budget per keyword. */
export function unsupportedFilterKeyword(schema: unknown, patterns: FilterPatterns, at = 'filter', depth = 0): string | undefined {
  if (!isSchema(schema) || depth > MAX_DEPTH) return at;
  for (const [keyword, value] of Object.entries(schema)) {
    patterns.spend(1);
    if (ANNOTATIONS.has(keyword)) continue;
    if (!KEYWORDS.has(keyword)) return `${at}.${keyword}`;
    if (keyword === 'format' && (typeof value !== 'string' || !FORMATS.has(value))) return `${at}.format`;
    if (keyword === 'pattern' && (typeof value !== 'string' || !patterns.compile(value).ok)) return `${at}.pattern`;
    if (NUMERIC.has(keyword) && typeof value !== 'number') return `${at}.${keyword}`;
    if (keyword === 'enum' && !Array.isArray(value)) return `${at}.enum`;
    if (keyword === 'type' && !(typeof value === 'string' || (Array.isArray(value) && value.every((t) => typeof t === 'string')))) return `${at}.type`;
    if (DATE_BOUNDS.includes(keyword) && (typeof schema.format !== 'string' || dateValue(value, schema.format) === undefined)) return `${at}.${keyword}`;
    if (keyword === 'items' || keyword === 'contains' || keyword === 'not') {
      const nested = unsupportedFilterKeyword(value, patterns, `${at}.${keyword}`, depth + 1);
      if (nested) return nested;
    }
  }
  return undefined;
}

function typeOf(value: unknown): string[] {
  if (value === null) return ['null'];
  if (Array.isArray(value)) return ['array'];
  if (typeof value === 'number') return Number.isInteger(value) ? ['number', 'integer'] : ['number'];
  return [typeof value];
}

/** Structural equality, one unit of the budget per node compared. */
function deepEqual(a: unknown, b: unknown, patterns: FilterPatterns): boolean {
  patterns.spend(1);
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i], patterns));
  if (isSchema(a) && isSchema(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k], patterns));
  }
  return false;
}

function dateValue(value: unknown, format: string): number | undefined {
  if (typeof value !== 'string') return undefined;
  const shape = format === 'date' ? /^\d{4}-\d{2}-\d{2}$/ : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
  if (!shape.test(value)) return undefined;
  const time = Date.parse(format === 'date' ? `${value}T00:00:00Z` : value);
  return Number.isNaN(time) ? undefined : time;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/**
 * Evaluate a filter already accepted by `unsupportedFilterKeyword`, charging the response's budget.
 * A value refused at any depth (FilterValueRefused) fails the whole filter: caught here, above
 * every `not`, so no negation can invert it. Throws MatchBudgetExceeded.
 */
export function matchesFilter(value: unknown, schema: JsonSchema, patterns: FilterPatterns): boolean {
  try {
    return evaluate(value, schema, patterns, 0);
  } catch (error) {
    if (error instanceof FilterValueRefused) return false;
    throw error;
  }
}

function evaluate(value: unknown, schema: JsonSchema, patterns: FilterPatterns, depth: number): boolean {
  if (depth > MAX_DEPTH) throw new FilterValueRefused(`the filter nests deeper than ${MAX_DEPTH} levels`);
  patterns.spend(1);
  const s = schema;
  if (s.type !== undefined) {
    const wanted = Array.isArray(s.type) ? s.type : [s.type];
    if (!typeOf(value).some((t) => wanted.includes(t))) return false;
  }
  if ('const' in s && !deepEqual(value, s.const, patterns)) return false;
  if (Array.isArray(s.enum) && !s.enum.some((option) => deepEqual(value, option, patterns))) return false;
  if (typeof value === 'string') {
    if (s.minLength !== undefined || s.maxLength !== undefined) patterns.spend(value.length >> 5);
    const length = s.minLength !== undefined || s.maxLength !== undefined ? [...value].length : 0;
    if (num(s.minLength) !== undefined && length < (s.minLength as number)) return false;
    if (num(s.maxLength) !== undefined && length > (s.maxLength as number)) return false;
    if (typeof s.pattern === 'string' && !patterns.test(s.pattern, value)) return false;
  }
  if (typeof value === 'number') {
    if (num(s.minimum) !== undefined && value < (s.minimum as number)) return false;
    if (num(s.maximum) !== undefined && value > (s.maximum as number)) return false;
    if (num(s.exclusiveMinimum) !== undefined && value <= (s.exclusiveMinimum as number)) return false;
    if (num(s.exclusiveMaximum) !== undefined && value >= (s.exclusiveMaximum as number)) return false;
  }
  if (Array.isArray(value)) {
    if (num(s.minItems) !== undefined && value.length < (s.minItems as number)) return false;
    if (num(s.maxItems) !== undefined && value.length > (s.maxItems as number)) return false;
    if (isSchema(s.items) && !value.every((item) => evaluate(item, s.items as JsonSchema, patterns, depth + 1))) return false;
    if (isSchema(s.contains) && !value.some((item) => evaluate(item, s.contains as JsonSchema, patterns, depth + 1))) return false;
  }
  if (isSchema(s.not) && evaluate(value, s.not, patterns, depth + 1)) return false;
  if (typeof s.format === 'string' && typeof value === 'string') {
    const time = dateValue(value, s.format);
    if (time === undefined) return false;
    const bound = (key: string) => dateValue(s[key], s.format as string);
    const min = bound('formatMinimum');
    const max = bound('formatMaximum');
    const xmin = bound('formatExclusiveMinimum');
    const xmax = bound('formatExclusiveMaximum');
    if ((min !== undefined && time < min) || (max !== undefined && time > max)) return false;
    if ((xmin !== undefined && time <= xmin) || (xmax !== undefined && time >= xmax)) return false;
  }
  return true;
}
