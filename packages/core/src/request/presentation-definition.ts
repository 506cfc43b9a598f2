import { presentationDefinitionSchema, type PresentationDefinition } from '../model/authorization-query.js';

export { presentationDefinitionSchema };
import type { FieldError } from '../errors/authorizer-error.js';
import { compileFilterPattern } from '../pattern/filter-pattern.js';
import { MAX_DEFINITION_PATTERN_LENGTH, MAX_DEFINITION_PATTERN_PROGRAM, MAX_DEFINITION_PATTERNS } from '../pattern/filter-pattern-limits.js';
import { jsonPointer } from './json-pointer.js';

type Path = (string | number)[];
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

// JSON Schema keywords whose values are schemas (one, an array of them, or a map of them): a
// `pattern` anywhere under them may be evaluated by some validator. Values of `const`, `enum`,
// `default` and `examples` are data and are not walked.
const ONE_SCHEMA = ['items', 'additionalItems', 'contains', 'not', 'if', 'then', 'else', 'additionalProperties', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];
const SCHEMA_ARRAYS = ['items', 'prefixItems', 'allOf', 'anyOf', 'oneOf'];
const SCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'];

/** Every pattern of a filter (`pattern` values and `patternProperties` names), with where it is. */
function collectPatterns(schema: unknown, at: Path, out: { pointer: Path; value: unknown }[]): void {
  if (!isObject(schema)) return;
  if ('pattern' in schema) out.push({ pointer: [...at, 'pattern'], value: schema.pattern });
  if (isObject(schema.patternProperties)) for (const name of Object.keys(schema.patternProperties)) out.push({ pointer: [...at, 'patternProperties', name], value: name });
  for (const keyword of ONE_SCHEMA) if (isObject(schema[keyword])) collectPatterns(schema[keyword], [...at, keyword], out);
  for (const keyword of SCHEMA_ARRAYS) {
    const list = schema[keyword];
    if (Array.isArray(list)) list.forEach((item, i) => collectPatterns(item, [...at, keyword, i], out));
  }
  for (const keyword of SCHEMA_MAPS) {
    const map = schema[keyword];
    if (isObject(map)) for (const [name, item] of Object.entries(map)) collectPatterns(item, [...at, keyword, name], out);
  }
}

/**
 * Every JSON Schema pattern of the definition's field filters must run on the linear-time engine
 * (see `compileFilterPattern`), and all of them together stay within the definition's limits: a
 * wallet response makes a validator run them against values the wallet chose.
 */
function patternIssues(definition: PresentationDefinition, base: Path): FieldError[] {
  const found: { pointer: Path; value: unknown }[] = [];
  definition.input_descriptors.forEach((d, i) => {
    const fields = isObject(d.constraints) ? d.constraints.fields : undefined;
    if (!Array.isArray(fields)) return;
    fields.forEach((field, j) => {
      if (isObject(field) && 'filter' in field) collectPatterns(field.filter, [...base, 'input_descriptors', i, 'constraints', 'fields', j, 'filter'], found);
    });
  });
  const issues: FieldError[] = [];
  const issue = (pointer: Path, detail: string) => issues.push({ pointer: jsonPointer(pointer), detail, code: 'request.unsupported_pattern' });
  if (found.length > MAX_DEFINITION_PATTERNS) {
    issue(found[MAX_DEFINITION_PATTERNS]!.pointer, `a presentation definition may hold ${MAX_DEFINITION_PATTERNS} patterns`);
    return issues;
  }
  let length = 0;
  let program = 0;
  const seen = new Set<string>();
  for (const { pointer, value } of found) {
    if (typeof value !== 'string') {
      issue(pointer, 'pattern must be a string');
      continue;
    }
    length += value.length;
    if (length > MAX_DEFINITION_PATTERN_LENGTH) {
      issue(pointer, `the patterns of a presentation definition may have ${MAX_DEFINITION_PATTERN_LENGTH} characters in total`);
      break;
    }
    if (seen.has(value)) continue; // compiled, and counted, once
    seen.add(value);
    // What the patterns before it left of the definition's program: a pattern over it is refused before it is compiled.
    const result = compileFilterPattern(value, MAX_DEFINITION_PATTERN_PROGRAM - program);
    if (!result.ok) {
      const left = program > 0 ? ` (the patterns before it use ${program} of the ${MAX_DEFINITION_PATTERN_PROGRAM} instructions a definition may have)` : '';
      issue(pointer, `unsupported pattern: ${result.reason}${left}`);
      continue;
    }
    program += result.pattern.programSize;
  }
  return issues;
}

export function presentationDefinitionIssues(definition: PresentationDefinition, base: (string | number)[]): FieldError[] {
  const seen = new Set<string>();
  const issues: FieldError[] = [];
  definition.input_descriptors.forEach((d, i) => {
    if (seen.has(d.id)) issues.push({ pointer: jsonPointer([...base, 'input_descriptors', i, 'id']), detail: `duplicate input descriptor id "${d.id}"` });
    seen.add(d.id);
  });
  issues.push(...patternIssues(definition, base));
  return issues;
}
