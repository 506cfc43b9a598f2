import type { IssuerAnchorSource } from '../../x509/issuer-anchors.js';
import type { DcqlCredentialQuery } from '@vp-authorizer/core';
import type { CredentialView } from '../credential-view.js';
import type { MatchBudget } from '../match-budget.js';
import { trustedAuthoritiesProblem } from '../trust/trusted-authorities.js';
import type { Problem } from '../validator-results.js';
import { matchesValues, selectClaims, selectMdocClaim } from './claims-path.js';

type ClaimOutcome = 'ok' | 'missing' | 'value_mismatch';

const stringArray = (value: unknown): string[] | undefined => (Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined);

/** DCQL 6.2 (b): vct exact match (no `extends` subtypes), doctype equality, W3C type subset rule. */
function metaProblem(query: DcqlCredentialQuery, view: CredentialView, pointer: string, budget: MatchBudget): Problem | undefined {
  const meta = query.meta ?? {};
  const at = `${pointer}/meta`;
  if (view.family === 'sd-jwt') {
    const vctValues = stringArray(meta.vct_values);
    if (vctValues === undefined) return undefined;
    if (view.vct === undefined || !vctValues.includes(view.vct)) return { code: 'credential_query.meta_mismatch', detail: `the credential vct is not one of the ${vctValues.length} vct_values of the query`, pointer: `${at}/vct_values` };
  } else if (view.family === 'mdoc') {
    const doctype = meta.doctype_value;
    if (typeof doctype !== 'string') return undefined;
    if (view.docType !== doctype) return { code: 'credential_query.meta_mismatch', detail: 'the document docType does not equal the doctype_value of the query', pointer: `${at}/doctype_value` };
  } else {
    const typeValues = Array.isArray(meta.type_values) ? meta.type_values.map(stringArray) : undefined;
    if (typeValues === undefined) return undefined;
    // B.1.1: type_values are expanded IRIs (bare names are refused at creation), compared with
    // the credential's types expanded with its own @context.
    const expanded = view.expandedTypes;
    if (expanded === undefined) return { code: 'credential_query.meta_mismatch', detail: 'the credential carries no @context, so its types have no IRIs to compare with type_values', pointer: `${at}/type_values` };
    if (!expanded.ok) return { code: expanded.code, detail: expanded.detail, pointer: `${at}/type_values` };
    const types = new Set(expanded.types);
    budget.spend(typeValues.length + types.size);
    // The credential's types must contain every type of at least one inner array.
    const ok = typeValues.some((alternative) => alternative !== undefined && alternative.every((t) => types.has(t)));
    if (!ok) return { code: 'credential_query.meta_mismatch', detail: 'the credential types contain none of the type_values alternatives of the query', pointer: `${at}/type_values` };
  }
  return undefined;
}

function claimOutcome(claim: NonNullable<DcqlCredentialQuery['claims']>[number], view: CredentialView, budget: MatchBudget): ClaimOutcome {
  budget.spend(1);
  const spend = (units: number) => budget.spend(units);
  const selection = view.family === 'mdoc' ? selectMdocClaim(view.claims, claim.path) : selectClaims(view.claims, claim.path, { anyIndex: view.family === 'sd-jwt', spend });
  if (!selection.ok) return 'missing';
  if (claim.values !== undefined) {
    budget.spend(selection.selected.length * claim.values.length);
    if (!matchesValues(selection.selected, claim.values)) return 'value_mismatch';
  }
  return 'ok';
}

function describePath(path: readonly (string | number | null)[]): string {
  return JSON.stringify(path);
}

/**
 * DCQL 6.2 (e): without `claims` → satisfied; `claims` without `claim_sets` → every claim
 * resolves (and matches `values`); with `claim_sets` → at least one set (any, not only the first)
 * has every claim resolved. `values` are always checked here: the wallet's filtering is best
 * effort and must not be relied on (§6.4). Details name the query path only, never the values.
 */
function claimsProblems(query: DcqlCredentialQuery, view: CredentialView, pointer: string, budget: MatchBudget): { problems: Problem[]; claimSet?: number } {
  const claims = query.claims;
  if (claims === undefined || claims.length === 0) return { problems: [] };
  const outcomes = claims.map((claim) => claimOutcome(claim, view, budget));
  const problemFor = (i: number): Problem | undefined => {
    const outcome = outcomes[i];
    const claim = claims[i];
    if (outcome === 'ok' || outcome === undefined || claim === undefined) return undefined;
    return outcome === 'missing'
      ? { code: 'credential_query.claims_unsatisfied', detail: `the claim at path ${describePath(claim.path)} is not disclosed`, pointer: `${pointer}/claims/${i}` }
      : { code: 'credential_query.value_mismatch', detail: `the claim at path ${describePath(claim.path)} has none of the values the query allows`, pointer: `${pointer}/claims/${i}/values` };
  };

  const claimSets = query.claim_sets;
  if (claimSets === undefined || claimSets.length === 0) {
    return { problems: claims.map((_, i) => problemFor(i)).filter((p): p is Problem => p !== undefined) };
  }
  const indexById = new Map(claims.map((claim, i) => [claim.id, i] as const));
  const satisfied = claimSets.findIndex((set) => set.every((id) => outcomes[indexById.get(id) ?? -1] === 'ok'));
  if (satisfied >= 0) return { problems: [], claimSet: satisfied };
  const failing = new Set<number>();
  for (const set of claimSets) for (const id of set) if (outcomes[indexById.get(id) ?? -1] !== 'ok') failing.add(indexById.get(id) ?? -1);
  const details = [...failing].sort((a, b) => a - b).map(problemFor).filter((p): p is Problem => p !== undefined);
  const onlyValues = details.length > 0 && details.every((p) => p.code === 'credential_query.value_mismatch');
  return {
    problems: [
      { code: onlyValues ? 'credential_query.value_mismatch' : 'credential_query.claims_unsatisfied', detail: `none of the ${claimSets.length} claim_sets is satisfied`, pointer: `${pointer}/claim_sets` },
      ...details,
    ],
  };
}

export interface CredentialMatch {
  problems: Problem[];
  /** Index of the satisfied claim set, when the query has claim_sets. */
  claimSet?: number;
}

/**
 * Checks one credential against its credential query: meta (b), holder binding (c), trusted
 * authorities (d) and claims (e). The format (a) is checked per presentation by the caller.
 * `pointer` locates the credential query inside the DCQL query (for example `/credentials/2`).
 * Claims matching spends from the response's `budget` (throws MatchBudgetExceeded).
 */
export function matchCredential(query: DcqlCredentialQuery, view: CredentialView, pointer: string, budget: MatchBudget, lists?: IssuerAnchorSource): CredentialMatch {
  const problems: Problem[] = [];
  const meta = metaProblem(query, view, pointer, budget);
  if (meta) problems.push(meta);
  // Default true (§6.1). The verifier checks the proof itself; here only its presence matters.
  if (query.require_cryptographic_holder_binding !== false && !view.holderBinding) {
    problems.push({
      code: 'credential_query.holder_binding_missing',
      detail: 'the query requires cryptographic holder binding and the presentation carries no holder proof (KB-JWT, deviceSignature or VP proof)',
      pointer: `${pointer}/require_cryptographic_holder_binding`,
    });
  }
  const authority = trustedAuthoritiesProblem(query, view.x5c, pointer, lists);
  if (authority) problems.push(authority);
  const claims = claimsProblems(query, view, pointer, budget);
  problems.push(...claims.problems);
  return claims.claimSet === undefined ? { problems } : { problems, claimSet: claims.claimSet };
}
