import type { ParsedPresentation, PolicyResult, PresentationDefinition } from '@vp-authorizer/core';
import { isSupportedFormat, sameFormat } from '@vp-authorizer/core/formats';
import { presentationKey, type CredentialView } from '../credential-view.js';
import type { QueryEvaluation } from '../dcql/evaluate-dcql.js';
import { MatchBudget, MatchBudgetExceeded } from '../match-budget.js';
import { failed, isNonEmpty, passed, type Problem } from '../validator-results.js';
import { evaluateJsonPath, parseJsonPath, UnsupportedJsonPathError, type JsonPathSegment } from './json-path.js';
import { FilterPatterns } from './filter-patterns.js';
import { matchesFilter, unsupportedFilterKeyword, type JsonSchema } from './json-schema-filter.js';
import { submissionRequirementProblems } from './submission-requirements.js';

type Descriptor = PresentationDefinition['input_descriptors'][number];
interface Field {
  path?: unknown;
  filter?: unknown;
  optional?: unknown;
}

/** PE v2 holder/subject relations this validator cannot evaluate; ignoring them would let everything pass. */
const UNSUPPORTED_CONSTRAINTS = ['is_holder', 'subject_is_issuer', 'same_subject'] as const;

function unsupportedConstraintProblems(descriptor: Descriptor, descriptorIndex: number): Problem[] {
  const constraints = (descriptor.constraints ?? {}) as Record<string, unknown>;
  return UNSUPPORTED_CONSTRAINTS.filter((key) => constraints[key] !== undefined).map((key) => ({
    code: 'presentation_exchange.unsupported_constraint' as const,
    detail: `constraints.${key} is not supported`,
    pointer: `/input_descriptors/${descriptorIndex}/constraints/${key}`,
  }));
}

/** The descriptor's (else the definition's) `format` object lists the allowed format names. */
function formatAllowed(definition: PresentationDefinition, descriptor: Descriptor, format: string): boolean {
  const allowed = descriptor.format ?? definition.format;
  if (allowed === undefined || typeof allowed !== 'object' || allowed === null) return true;
  const names = Object.keys(allowed);
  // Either name of a format counts (`vc+sd-jwt` allows `dc+sd-jwt`).
  return names.some((name) => sameFormat(name, format));
}

/** Paths are compiled once per field; unsupported syntax is a problem, not an exception. */
function compileField(field: Field, pointer: string, patterns: FilterPatterns): { paths: JsonPathSegment[][]; filter?: JsonSchema; optional: boolean } | Problem {
  const rawPaths = Array.isArray(field.path) ? field.path : [];
  if (rawPaths.length === 0 || !rawPaths.every((p) => typeof p === 'string')) {
    return { code: 'presentation_exchange.unsupported_jsonpath', detail: 'the field has no path array of JSONPath strings', pointer: `${pointer}/path` };
  }
  const paths: JsonPathSegment[][] = [];
  for (const [k, p] of (rawPaths as string[]).entries()) {
    patterns.spend(1 + (p.length >> 3)); // parsed for every credential it is tried on: charged like matching
    try {
      paths.push(parseJsonPath(p));
    } catch (error) {
      if (!(error instanceof UnsupportedJsonPathError)) throw error;
      return { code: 'presentation_exchange.unsupported_jsonpath', detail: error.message, pointer: `${pointer}/path/${k}` };
    }
  }
  if (field.filter !== undefined) {
    const unsupported = unsupportedFilterKeyword(field.filter, patterns);
    if (unsupported) return { code: 'presentation_exchange.unsupported_filter', detail: `the filter keyword at ${unsupported} is not supported`, pointer: `${pointer}/filter` };
  }
  return { paths, ...(field.filter === undefined ? {} : { filter: field.filter as JsonSchema }), optional: field.optional === true };
}

/**
 * PE v2 field semantics: the paths are tried in order; the field holds when one of them selects a
 * value (that passes `filter`, when present). An `optional` field may be absent.
 */
function fieldProblems(descriptor: Descriptor, descriptorIndex: number, view: CredentialView, patterns: FilterPatterns): Problem[] {
  const constraints = (descriptor.constraints ?? {}) as { fields?: unknown };
  const fields = Array.isArray(constraints.fields) ? (constraints.fields as Field[]) : [];
  const problems: Problem[] = [];
  fields.forEach((field, j) => {
    const pointer = `/input_descriptors/${descriptorIndex}/constraints/fields/${j}`;
    const compiled = compileField(field ?? {}, pointer, patterns);
    if ('code' in compiled) {
      problems.push(compiled);
      return;
    }
    const found = compiled.paths.some((segments) =>
      view.peDocuments.some((doc) => evaluateJsonPath(doc, segments, (units) => patterns.spend(units)).some((value) => compiled.filter === undefined || matchesFilter(value, compiled.filter, patterns))),
    );
    if (!found && !compiled.optional) {
      problems.push({ code: 'presentation_exchange.fields_unsatisfied', detail: `constraints.fields[${j}] selects no value${compiled.filter ? ' that passes its filter' : ''}`, pointer });
    }
  });
  return problems;
}

/**
 * Presentation Exchange (legacy): descriptor ids and formats, `constraints.fields` (safe JSONPath
 * subset + JSON Schema filter subset, `optional`), then `submission_requirements` on the
 * presentations that passed. `definition_id` is compared with the submission by the format
 * policy (ValidateInput carries no submission). Same strictness as DCQL: every failing
 * presentation is an error result; `[]` reports what §8.6-style re-evaluation found.
 *
 * A presentation in `untrusted` (its issuer failed the trustedIssuer policy, checked before) is
 * discarded without being evaluated: a wallet cannot make an issuer nobody trusts cost filter
 * work. Paths, filters and patterns (on a linear-time engine) spend from one budget for the whole
 * response (`MatchBudget`).
 */
/** A credential whose types could not be expanded with its `@context` (an unknown context) meets no descriptor. */
function typeExpansionProblem(view: CredentialView, index: number): Problem | undefined {
  const expanded = view.expandedTypes;
  if (expanded === undefined || expanded.ok) return undefined;
  const code = expanded.code === 'credential_query.match_budget_exceeded' ? 'presentation_exchange.match_budget_exceeded' : expanded.code;
  return { code, detail: expanded.detail, pointer: `/input_descriptors/${index}` };
}

export function evaluatePresentationDefinition(
  definition: PresentationDefinition,
  presentations: ParsedPresentation[],
  viewsOf: (p: ParsedPresentation) => CredentialView[],
  untrusted: ReadonlySet<string>,
  budget: MatchBudget = new MatchBudget(),
): QueryEvaluation {
  const results: PolicyResult[] = [];
  const validQueryIds = new Set<string>();
  const discarded: (string | number)[][] = [];
  const patterns = new FilterPatterns(budget);
  for (const presentation of presentations) {
    if (untrusted.has(presentationKey(presentation.path))) {
      discarded.push(presentation.path);
      continue;
    }
    const index = definition.input_descriptors.findIndex((d) => d.id === presentation.queryId);
    const descriptor = definition.input_descriptors[index];
    let problems: Problem[] = [];
    if (descriptor === undefined) {
      problems.push({ code: 'presentation_exchange.unknown_descriptor', detail: `the definition has no input descriptor ${JSON.stringify(presentation.queryId)}` });
    } else if (!isSupportedFormat(presentation.format) || !formatAllowed(definition, descriptor, presentation.format)) {
      problems.push({ code: 'presentation_exchange.format_mismatch', detail: `the format ${presentation.format} is not allowed for this input descriptor`, pointer: `/input_descriptors/${index}/format` });
    } else if (unsupportedConstraintProblems(descriptor, index).length > 0) {
      problems = unsupportedConstraintProblems(descriptor, index);
    } else {
      const views = viewsOf(presentation);
      // A VP may carry several credentials: one of them must meet the descriptor's constraints.
      try {
        const perView = views.map((view) => {
          const refused = typeExpansionProblem(view, index);
          return refused ? [refused] : fieldProblems(descriptor, index, view, patterns);
        });
        if (views.length === 0) problems.push({ code: 'presentation_exchange.fields_unsatisfied', detail: 'the presentation contains no credential', pointer: `/input_descriptors/${index}` });
        else if (!perView.some((p) => p.length === 0)) problems = perView[0] ?? [];
      } catch (error) {
        if (!(error instanceof MatchBudgetExceeded)) throw error;
        problems = [{ code: 'presentation_exchange.match_budget_exceeded', detail: error.message, pointer: `/input_descriptors/${index}/constraints/fields` }];
      }
    }
    if (isNonEmpty(problems)) {
      results.push(failed('credentialQuery', presentation.path, problems));
      discarded.push(presentation.path);
      continue;
    }
    results.push(passed('credentialQuery', presentation.path, { descriptorId: presentation.queryId }));
    validQueryIds.add(presentation.queryId);
  }
  const problems = submissionRequirementProblems(definition, validQueryIds);
  results.push(isNonEmpty(problems) ? failed('credentialQuery', [], problems) : passed('credentialQuery', [], { satisfied: true, validDescriptorIds: [...validQueryIds], discarded }));
  return { results, validQueryIds };
}
