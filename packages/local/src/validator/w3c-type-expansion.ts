import { expandCredentialTypes, expansionInput, type ExpandedTypes, type ExpansionInput } from '../data-integrity/expand-credential-types.js';
import type { CredentialView } from './credential-view.js';
import { MatchBudgetExceeded, type MatchBudget } from './match-budget.js';

/** A W3C view's expanded types, or why the credential is refused (its expansion would overspend the response's budget). */
export type ViewTypeExpansion = ExpandedTypes | { ok: false; code: 'credential_query.match_budget_exceeded'; detail: string };

/**
 * Work units of one expansion, at the match budget's 30–100 ns per unit (bench/type-expansion.mjs):
 * a fixed 30,000 (JSON-LD processes the VC 2.0 base context afresh on every expansion, about
 * 1.7 ms), 10 per character of `@context` and `type` (term definitions and lookups, about 0.4 µs),
 * and 40,000 per context definition the credential embeds (a scoped context is processed when its
 * term is defined, at a cost growing with the terms around it). So one response expands a few
 * dozen credentials of distinct types at most; repeated ones are remembered and cost nothing.
 */
export const EXPANSION_UNITS = 30_000;
export const EXPANSION_UNITS_PER_CHARACTER = 10;
export const EXPANSION_UNITS_PER_EMBEDDED_CONTEXT = 40_000;

const unitsOf = (input: ExpansionInput): number => EXPANSION_UNITS + input.json.length * EXPANSION_UNITS_PER_CHARACTER + input.embeddedContexts * EXPANSION_UNITS_PER_EMBEDDED_CONTEXT;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Expands the `type` of every W3C credential among `views` that carries an `@context`
 * (OpenID4VP 1.0 B.1.1), charging the response's match budget first. Sets `expandedTypes` on each.
 */
export async function expandViewTypes(views: readonly CredentialView[], contexts: ReadonlyMap<string, unknown>, budget: MatchBudget, signal: AbortSignal): Promise<void> {
  for (const view of views) {
    if (view.family !== 'w3c' || !isObject(view.claims)) continue;
    const input = expansionInput(view.claims);
    if (input === undefined) continue;
    try {
      view.expandedTypes = await expandCredentialTypes(input, contexts, (work) => budget.spend(unitsOf(work)));
    } catch (error) {
      if (!(error instanceof MatchBudgetExceeded)) throw error;
      view.expandedTypes = { ok: false, code: 'credential_query.match_budget_exceeded', detail: "expanding the credential's types needs more work than this response may spend" };
      continue;
    }
    if (view.expandedTypes.ok) {
      // Presentation Exchange reads `$.type` (and `$.vc.type` of a JWT VC) from this document too.
      const types = [...view.expandedTypes.types];
      view.peDocuments.push({ type: types, vc: { type: types } });
    }
    signal.throwIfAborted();
  }
}
