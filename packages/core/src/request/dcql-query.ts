import * as v from 'valibot';
import { dcqlQuerySchema, type DcqlQuery } from '../model/authorization-query.js';
export { dcqlQuerySchema };
import type { FieldError } from '../errors/authorizer-error.js';
import { FORMATS, formatDescriptor, formatNames } from '../formats/registry.js';
import { jsonPointer } from './json-pointer.js';

/** The format's own `meta` rules (its descriptor); unknown formats are refused by dcqlQueryIssues. */
function metaIssues(format: string, meta: Record<string, unknown> | undefined, at: (string | number)[]): FieldError[] {
  if (meta === undefined) return [];
  const issues = formatDescriptor(format)?.dcqlMetaIssues?.(meta, format) ?? [];
  return issues.map((issue) => ({ pointer: jsonPointer([...at, ...issue.path]), detail: issue.detail }));
}

/**
 * Rules the schema cannot express: unique ids, claim_sets referencing defined claim ids (and only
 * with claims), credential_sets referencing defined credential ids, per-format meta and mdoc paths.
 * `base` is where the query sits in the request body.
 */
export function dcqlQueryIssues(query: DcqlQuery, base: (string | number)[]): FieldError[] {
  const issues: FieldError[] = [];
  const ids = new Set<string>();
  query.credentials.forEach((cred, i) => {
    const at = [...base, 'credentials', i];
    if (ids.has(cred.id)) issues.push({ pointer: jsonPointer([...at, 'id']), detail: `duplicate credential query id "${cred.id}"` });
    ids.add(cred.id);
    // A format no wallet answer could be decoded in: refused now, not when the response fails.
    if (!formatDescriptor(cred.format)) issues.push({ pointer: jsonPointer([...at, 'format']), detail: `unsupported credential format "${cred.format}"; supported formats: ${FORMATS.flatMap(formatNames).join(', ')}` });
    issues.push(...metaIssues(cred.format, cred.meta, at));

    const claimIds = new Set<string>();
    cred.claims?.forEach((claim, j) => {
      if (claim.id === undefined) return;
      if (claimIds.has(claim.id)) issues.push({ pointer: jsonPointer([...at, 'claims', j, 'id']), detail: `duplicate claim id "${claim.id}"` });
      claimIds.add(claim.id);
    });
    const claimPathIssue = formatDescriptor(cred.format)?.dcqlClaimPathIssue;
    if (claimPathIssue) {
      cred.claims?.forEach((claim, j) => {
        const detail = claimPathIssue(claim.path);
        if (detail) issues.push({ pointer: jsonPointer([...at, 'claims', j, 'path']), detail });
      });
    }
    if (cred.claim_sets !== undefined) {
      if (cred.claims === undefined) {
        issues.push({ pointer: jsonPointer([...at, 'claim_sets']), detail: 'claim_sets is only allowed together with claims' });
      } else {
        cred.claims.forEach((claim, j) => {
          if (claim.id === undefined) issues.push({ pointer: jsonPointer([...at, 'claims', j, 'id']), detail: 'every claim needs an id when claim_sets is used' });
        });
        cred.claim_sets.forEach((set, k) =>
          set.forEach((claimId, l) => {
            if (!claimIds.has(claimId)) issues.push({ pointer: jsonPointer([...at, 'claim_sets', k, l]), detail: `claim id "${claimId}" is not defined in claims` });
          }),
        );
      }
    }
  });
  query.credential_sets?.forEach((set, i) =>
    set.options.forEach((option, j) =>
      option.forEach((id, k) => {
        if (!ids.has(id)) issues.push({ pointer: jsonPointer([...base, 'credential_sets', i, 'options', j, k]), detail: `credential query id "${id}" is not defined in credentials` });
      }),
    ),
  );
  return issues;
}
