import { presentationDefinitionSchema, type PresentationDefinition } from '../model/authorization-query.js';

export { presentationDefinitionSchema };
import type { FieldError } from '../errors/authorizer-error.js';
import { jsonPointer } from './json-pointer.js';

export function presentationDefinitionIssues(definition: PresentationDefinition, base: (string | number)[]): FieldError[] {
  const seen = new Set<string>();
  const issues: FieldError[] = [];
  definition.input_descriptors.forEach((d, i) => {
    if (seen.has(d.id)) issues.push({ pointer: jsonPointer([...base, 'input_descriptors', i, 'id']), detail: `duplicate input descriptor id "${d.id}"` });
    seen.add(d.id);
  });
  return issues;
}
