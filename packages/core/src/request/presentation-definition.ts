import * as v from 'valibot';
import type { PresentationDefinition } from '../authorization/authorization-record.js';
import type { FieldError } from '../errors/authorizer-error.js';
import { jsonPointer } from './json-pointer.js';

/** DIF Presentation Exchange v2 definition, checked only as far as the authorizer relies on it. */
export const presentationDefinitionSchema = v.looseObject({
  id: v.pipe(v.string('id is required'), v.minLength(1, 'id must not be empty')),
  input_descriptors: v.pipe(
    v.array(v.looseObject({ id: v.pipe(v.string('input descriptor id is required'), v.minLength(1, 'input descriptor id must not be empty')) })),
    v.minLength(1, 'input_descriptors must list at least one descriptor'),
  ),
});

export function presentationDefinitionIssues(definition: PresentationDefinition, base: (string | number)[]): FieldError[] {
  const seen = new Set<string>();
  const issues: FieldError[] = [];
  definition.input_descriptors.forEach((d, i) => {
    if (seen.has(d.id)) issues.push({ pointer: jsonPointer([...base, 'input_descriptors', i, 'id']), detail: `duplicate input descriptor id "${d.id}"` });
    seen.add(d.id);
  });
  return issues;
}
