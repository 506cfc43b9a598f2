import * as v from 'valibot';
import type { DcqlQuery } from '../authorization/authorization-record.js';
import type { FieldError } from '../errors/authorizer-error.js';
import { formatDescriptor } from '../formats/registry.js';
import { jsonPointer } from './json-pointer.js';
import { plainObject } from './plain-object.js';

const ID_PATTERN = /^[A-Za-z0-9_-]+$/;
const idSchema = v.pipe(v.string(), v.regex(ID_PATTERN, 'must match ^[A-Za-z0-9_-]+$'));

const claimSchema = v.looseObject({
  id: v.optional(idSchema),
  path: v.pipe(
    v.array(v.union([v.string(), v.pipe(v.number(), v.integer(), v.minValue(0)), v.null()], 'path elements must be strings, non-negative integers or null')),
    v.minLength(1, 'path must not be empty'),
  ),
  values: v.optional(v.pipe(v.array(v.union([v.string(), v.number(), v.boolean()], 'values must be strings, numbers or booleans')), v.minLength(1, 'values must not be empty'))),
  intent_to_retain: v.optional(v.boolean()),
});

const credentialSchema = v.looseObject({
  id: idSchema,
  format: v.pipe(v.string('format is required'), v.minLength(1, 'format must not be empty')),
  multiple: v.optional(v.boolean()),
  meta: v.optional(plainObject('meta must be an object')),
  trusted_authorities: v.optional(
    v.pipe(
      v.array(v.looseObject({ type: v.pipe(v.string(), v.minLength(1)), values: v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.minLength(1, 'values must not be empty')) })),
      v.minLength(1, 'trusted_authorities must not be empty'),
    ),
  ),
  require_cryptographic_holder_binding: v.optional(v.boolean()),
  claims: v.optional(v.pipe(v.array(claimSchema), v.minLength(1, 'claims must not be empty'))),
  claim_sets: v.optional(v.pipe(v.array(v.pipe(v.array(v.string()), v.minLength(1, 'a claim set must not be empty'))), v.minLength(1, 'claim_sets must not be empty'))),
});

/** DCQL query structure (OpenID4VP 1.0 section 6). Unknown members are kept. Cross-references: `dcqlQueryIssues`. */
export const dcqlQuerySchema = v.looseObject({
  credentials: v.pipe(v.array(credentialSchema, 'credentials must be an array'), v.minLength(1, 'credentials must list at least one credential query')),
  credential_sets: v.optional(
    v.pipe(
      v.array(
        v.looseObject({
          options: v.pipe(v.array(v.pipe(v.array(v.string()), v.minLength(1, 'an option must not be empty'))), v.minLength(1, 'options must not be empty')),
          required: v.optional(v.boolean()),
        }),
      ),
      v.minLength(1, 'credential_sets must not be empty'),
    ),
  ),
});

/** The format's own `meta` rules (its descriptor); unknown formats have none here and fail when a response arrives. */
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
