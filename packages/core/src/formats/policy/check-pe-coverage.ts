import { FormatFailure } from '../format-error.js';
import type { PresentationDefinition } from '../../model/authorization-query.js';

type Requirement = Record<string, unknown>;
const MAX_DEPTH = 8;

const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined);

/**
 * Lower bound of a PE v2 §5.1 rule: `all` needs every member, `pick` needs `count` (or `min`, or
 * one). Upper bounds (`max`, exactly `count`) are left to the validator: a response that answers
 * too much is not one that authorizes on too little. An unknown rule never holds (fail closed).
 */
function enough(requirement: Requirement, answered: number, total: number): boolean {
  if (requirement.rule === 'all') return total > 0 && answered === total;
  if (requirement.rule !== 'pick') return false;
  // With only `max`, zero is enough (as in the validator); with no bound at all, one is needed.
  const needed = count(requirement.count) ?? count(requirement.min) ?? (count(requirement.max) !== undefined ? 0 : 1);
  return answered >= needed;
}

function holds(requirement: Requirement, definition: PresentationDefinition, answered: ReadonlySet<string>, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  if (typeof requirement.from === 'string') {
    const group = requirement.from;
    const members = definition.input_descriptors.filter((d) => Array.isArray(d.group) && d.group.includes(group));
    return enough(requirement, members.filter((d) => answered.has(d.id)).length, members.length);
  }
  if (Array.isArray(requirement.from_nested)) {
    const nested = requirement.from_nested.filter((r): r is Requirement => typeof r === 'object' && r !== null);
    return enough(requirement, nested.filter((r) => holds(r, definition, answered, depth + 1)).length, nested.length);
  }
  return false;
}

/**
 * Does the descriptor_map answer enough input descriptors for the definition to be satisfied at
 * all? Without `submission_requirements` every input descriptor needs an entry; with them, each
 * top-level requirement must be reachable. The format policy does not know whether the instance
 * runs a validator, so this runs always, as the DCQL check does: the validator re-checks on the
 * presentations that survive validation, and with validation skipped a partial submission must
 * still not authorize.
 */
export function checkPeCoverage(answeredIds: ReadonlySet<string>, definition: PresentationDefinition): FormatFailure | undefined {
  const descriptors = Array.isArray(definition.input_descriptors) ? definition.input_descriptors : [];
  const requirements = Array.isArray(definition.submission_requirements) ? definition.submission_requirements : [];
  if (requirements.length === 0) {
    const missing = descriptors.filter((d) => !answeredIds.has(d.id)).map((d) => safeId(d.id));
    return missing.length ? new FormatFailure('format.query_not_covered', `the presentation_submission has no entry for the input descriptors: ${missing.join(', ')}`) : undefined;
  }
  const unmet = requirements.findIndex((r) => typeof r !== 'object' || r === null || !holds(r, { ...definition, input_descriptors: descriptors }, answeredIds, 0));
  return unmet >= 0 ? new FormatFailure('format.query_not_covered', `the presentation_submission cannot meet submission requirement ${unmet}`) : undefined;
}

// Descriptor ids come from the relying party; cut anyway so a detail stays short.
const safeId = (id: unknown) => String(id).slice(0, 64);
