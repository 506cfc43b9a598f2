import type { DcqlQuery } from '@vp-authorizer/core';
import type { Problem } from '../validator-results.js';

export interface CredentialSetsOutcome {
  problems: Problem[];
  /** Per credential set: the options fully covered by valid presentations. */
  sets?: { index: number; required: boolean; matchedOptions: string[][] }[];
}

/**
 * DCQL 6.2 step 3 on the presentations that survived per-presentation checks. Without
 * `credential_sets` every credential query needs a valid presentation. With them, every set whose
 * `required` is not false needs one option whose ids all have valid presentations; optional sets
 * may be absent.
 */
export function evaluateCredentialSets(query: DcqlQuery, validQueryIds: ReadonlySet<string>): CredentialSetsOutcome {
  const sets = query.credential_sets;
  if (sets === undefined || sets.length === 0) {
    const problems = query.credentials
      .map((credential, i) => ({ credential, i }))
      .filter(({ credential }) => !validQueryIds.has(credential.id))
      .map(({ credential, i }): Problem => ({ code: 'credential_query.unsatisfied', detail: `credential query ${JSON.stringify(credential.id)} has no valid presentation`, pointer: `/credentials/${i}` }));
    return { problems };
  }
  const problems: Problem[] = [];
  const outcome = sets.map((set, index) => {
    const required = set.required !== false;
    const matchedOptions = set.options.filter((option) => option.length > 0 && option.every((id) => validQueryIds.has(id)));
    if (required && matchedOptions.length === 0) {
      problems.push({ code: 'credential_query.unsatisfied', detail: `required credential set ${index} has no option whose credential queries all have valid presentations`, pointer: `/credential_sets/${index}` });
    }
    return { index, required, matchedOptions };
  });
  return { problems, sets: outcome };
}
