import type * as v from 'valibot';

// Valibot's `object` drops members it does not know: a misspelt option (`openid4vp`,
// `publicBaseURL`) would then be ignored and the flow would fail far from the mistake. This walks
// the input alongside the schema's object entries and names every member no entry matches.

/** Members of hosted-API configurations that have no meaning here: accepted and ignored (docs/configuration.md). */
const IGNORED_MEMBERS: readonly (readonly string[])[] = [
  ['openId4vp', 'trustAnchor', 'type'],
  ['validator', 'serviceRole'],
  ['verifier', 'serviceRole'],
];

type AnySchema = v.GenericSchema & { type: string; wrapped?: AnySchema; entries?: Record<string, AnySchema>; item?: AnySchema; options?: readonly AnySchema[]; key?: string };

export interface UnknownKeyIssue {
  path: string;
  message: string;
}

const isPlainObject = (x: unknown): x is Record<string, unknown> => {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return false;
  const proto = Object.getPrototypeOf(x) as unknown;
  return proto === Object.prototype || proto === null;
};

/** Unknown members of `input` for `schema`, each with a "did you mean" when a known name is close. */
export function unknownKeyIssues(schema: v.GenericSchema, input: unknown): UnknownKeyIssue[] {
  const issues: UnknownKeyIssue[] = [];
  walk(schema as AnySchema, input, [], issues, 0);
  return issues;
}

function unwrap(schema: AnySchema): AnySchema {
  // optional/nullable/nullish wrap their schema; a pipe copies its first schema's members, entries included.
  let s = schema;
  for (let i = 0; i < 8 && s.wrapped; i++) s = s.wrapped;
  return s;
}

function walk(schema: AnySchema, input: unknown, path: string[], issues: UnknownKeyIssue[], depth: number): void {
  if (depth > 16 || input === undefined || input === null) return;
  const s = unwrap(schema);
  if ((s.type === 'object' || s.type === 'strict_object' || s.type === 'loose_object') && s.entries && isPlainObject(input)) {
    const known = Object.keys(s.entries);
    for (const key of Object.keys(input)) {
      if (Object.hasOwn(s.entries, key)) {
        walk(s.entries[key]!, input[key], [...path, key], issues, depth + 1);
      } else if (s.type !== 'loose_object' && !isIgnored([...path, key])) {
        const suggestion = closest(key, known);
        issues.push({ path: [...path, key].join('.'), message: `unknown option "${key}"${suggestion ? `: did you mean "${suggestion}"?` : `; known options here: ${known.join(', ')}`}` });
      }
    }
  } else if (s.type === 'array' && s.item && Array.isArray(input)) {
    input.slice(0, 1000).forEach((item, i) => walk(s.item!, item, [...path, String(i)], issues, depth + 1));
  } else if (s.type === 'variant' && s.options && s.key && isPlainObject(input)) {
    const tag = input[s.key];
    const option = s.options.find((o) => {
      const entry = unwrap(o).entries?.[s.key!] as (AnySchema & { literal?: unknown }) | undefined;
      return entry?.literal === tag;
    });
    if (option) walk(option, input, path, issues, depth + 1);
  }
}

/** Path patterns match on their last members, wherever the object sits. */
function isIgnored(path: string[]): boolean {
  return IGNORED_MEMBERS.some((pattern) => pattern.length <= path.length && pattern.every((part, i) => path[path.length - pattern.length + i] === part));
}

/** The known name equal ignoring case, or within a small edit distance; undefined when none is close. */
export function closest(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const sameCase = known.find((k) => k.toLowerCase() === lower);
  if (sameCase) return sameCase;
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(name.length / 4)) + 1;
  for (const k of known) {
    const d = editDistance(lower, k.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3 || a.length > 64 || b.length > 64) return Number.POSITIVE_INFINITY;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}
