import type { PresentationDefinition } from '@vp-authorizer/core';
import type { Problem } from '../validator-results.js';

type Requirement = Record<string, unknown>;
const MAX_DEPTH = 8;

const int = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined);

/** `rule: all` → every member; `rule: pick` → `count` exactly, or within `min`..`max` (PE v2 §5.1). */
function ruleHolds(requirement: Requirement, satisfied: number, total: number): boolean {
  if (requirement.rule === 'all') return total > 0 && satisfied === total;
  if (requirement.rule !== 'pick') return false;
  const count = int(requirement.count);
  if (count !== undefined) return satisfied === count;
  const min = int(requirement.min);
  const max = int(requirement.max);
  return (min === undefined || satisfied >= min) && (max === undefined || satisfied <= max) && (min !== undefined || max !== undefined || satisfied > 0);
}

function holds(requirement: Requirement, definition: PresentationDefinition, satisfiedIds: ReadonlySet<string>, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  if (typeof requirement.from === 'string') {
    const group = requirement.from;
    const members = definition.input_descriptors.filter((d) => Array.isArray(d.group) && d.group.includes(group));
    return ruleHolds(requirement, members.filter((d) => satisfiedIds.has(d.id)).length, members.length);
  }
  if (Array.isArray(requirement.from_nested)) {
    const nested = requirement.from_nested.filter((r): r is Requirement => typeof r === 'object' && r !== null);
    return ruleHolds(requirement, nested.filter((r) => holds(r, definition, satisfiedIds, depth + 1)).length, nested.length);
  }
  return false;
}

/**
 * Does the set of input descriptors with valid presentations satisfy the definition? With
 * `submission_requirements`, every top-level requirement must hold; without, every input
 * descriptor needs a valid presentation.
 */
export function submissionRequirementProblems(definition: PresentationDefinition, satisfiedIds: ReadonlySet<string>): Problem[] {
  const requirements = definition.submission_requirements;
  if (requirements === undefined || requirements.length === 0) {
    return definition.input_descriptors
      .map((d, i) => ({ d, i }))
      .filter(({ d }) => !satisfiedIds.has(d.id))
      .map(({ d, i }) => ({ code: 'presentation_exchange.unsatisfied' as const, detail: `input descriptor ${JSON.stringify(d.id)} has no valid presentation`, pointer: `/input_descriptors/${i}` }));
  }
  return requirements
    .map((r, i) => ({ r, i }))
    .filter(({ r }) => !holds(r, definition, satisfiedIds, 0))
    .map(({ i }) => ({ code: 'presentation_exchange.unsatisfied' as const, detail: `submission requirement ${i} is not met by the valid presentations`, pointer: `/submission_requirements/${i}` }));
}
