import type { Code } from '@vp-authorizer/core';

/**
 * A deliberately small, safe JSONPath subset for Presentation Exchange `constraints.fields.path`:
 * `$`, `.key`, `['key']` / `["key"]`, `[n]`, `[*]` and `.*`. Recursive descent (`..`), unions,
 * slices and filter / script expressions (`?(…)`, `(…)`) are rejected: nothing is ever evaluated
 * as code.
 */
export type JsonPathSegment = { kind: 'key'; key: string } | { kind: 'index'; index: number } | { kind: 'wildcard' };

export class UnsupportedJsonPathError extends Error {
  override readonly name = 'UnsupportedJsonPathError';
  readonly code = 'presentation_exchange.unsupported_jsonpath' satisfies Code;
}

const MAX_LENGTH = 512;
const IDENTIFIER = /^[A-Za-z_$@][A-Za-z0-9_$@-]*/;

export function parseJsonPath(expression: string): JsonPathSegment[] {
  const fail = (why: string): never => {
    throw new UnsupportedJsonPathError(`unsupported JSONPath: ${why}`);
  };
  if (expression.length > MAX_LENGTH) fail(`longer than ${MAX_LENGTH} characters`);
  if (!expression.startsWith('$')) fail('it must start with $');
  if (expression.includes('?(') || expression.includes('(')) fail('filter and script expressions are not evaluated');
  const segments: JsonPathSegment[] = [];
  let i = 1;
  while (i < expression.length) {
    const ch = expression[i];
    if (ch === '.') {
      if (expression[i + 1] === '.') fail('recursive descent (..) is not supported');
      if (expression[i + 1] === '*') {
        segments.push({ kind: 'wildcard' });
        i += 2;
        continue;
      }
      const match = IDENTIFIER.exec(expression.slice(i + 1));
      if (!match) fail(`a member name is expected at position ${i + 1}`);
      const key = (match as RegExpExecArray)[0];
      segments.push({ kind: 'key', key });
      i += 1 + key.length;
    } else if (ch === '[') {
      const next = expression[i + 1];
      if (next === "'" || next === '"') {
        let key = '';
        let j = i + 2;
        for (; j < expression.length && expression[j] !== next; j++) {
          if (expression[j] === '\\') j++;
          key += expression[j] ?? '';
        }
        if (expression[j] !== next || expression[j + 1] !== ']') fail(`an unterminated quoted member name at position ${i}`);
        segments.push({ kind: 'key', key });
        i = j + 2;
      } else if (next === '*') {
        if (expression[i + 2] !== ']') fail(`] is expected at position ${i + 2}`);
        segments.push({ kind: 'wildcard' });
        i += 3;
      } else {
        const match = /^\[(\d{1,9})\]/.exec(expression.slice(i));
        if (!match) fail(`only [n], [*] and ['name'] are supported (position ${i})`);
        segments.push({ kind: 'index', index: Number((match as RegExpExecArray)[1]) });
        i += (match as RegExpExecArray)[0].length;
      }
    } else {
      fail(`unexpected character at position ${i}`);
    }
  }
  return segments;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * All values the path selects in `document` (own properties only; never the prototype chain).
 * Each step charges `spend` one unit per value it selects (and one for the step).
 */
export function evaluateJsonPath(document: unknown, segments: readonly JsonPathSegment[], spend: (units: number) => void = () => {}): unknown[] {
  let current: unknown[] = [document];
  for (const segment of segments) {
    const next: unknown[] = [];
    for (const node of current) {
      if (segment.kind === 'key') {
        if (isObject(node) && Object.hasOwn(node, segment.key)) next.push(node[segment.key]);
      } else if (segment.kind === 'index') {
        if (Array.isArray(node) && segment.index < node.length) next.push(node[segment.index]);
      } else if (Array.isArray(node)) {
        for (const item of node) next.push(item); // no spread: huge arrays would overflow the stack
      } else if (isObject(node)) {
        for (const item of Object.values(node)) next.push(item);
      }
    }
    spend(next.length + 1);
    current = next;
    if (current.length === 0) break;
  }
  return current.filter((value) => value !== undefined);
}
