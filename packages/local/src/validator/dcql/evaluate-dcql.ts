import type { IssuerAnchorSource } from '../../x509/issuer-anchors.js';
import { DcqlQuery as DcqlLib } from 'dcql';
import type { DcqlQuery, ParsedPresentation, PolicyResult } from '@vp-authorizer/core';
import { dcqlFormatMatches, presentationKey, type CredentialView } from '../credential-view.js';
import { MatchBudget, MatchBudgetExceeded } from '../match-budget.js';
import { failed, isNonEmpty, passed, type Problem } from '../validator-results.js';
import { evaluateCredentialSets } from './credential-sets.js';
import { matchCredential } from './match-credential.js';

export interface QueryEvaluation {
  results: PolicyResult[];
  /** Query ids with at least one presentation that passed every per-presentation check. */
  validQueryIds: Set<string>;
}

/**
 * Referential integrity of the query (unique ids, claim_sets and credential_sets naming defined
 * ids), using the dcql package's own validation. The query was accepted at creation, so a failure
 * here is a misconfiguration: we throw (→ status `error`) rather than blame the wallet.
 */
function assertQueryIsConsistent(query: DcqlQuery): void {
  try {
    DcqlLib.validate(query as unknown as Parameters<typeof DcqlLib.validate>[0]);
  } catch (cause) {
    throw new Error('The DCQL query of this authorization is inconsistent and cannot be evaluated', { cause });
  }
}

/**
 * DCQL matching with the OpenID4VP 1.0 §8.6 order: every presentation is checked
 * on its own; a failing one gets an error result at its path and is discarded; the credential
 * sets / required queries are then re-evaluated on what remains, and `[]` gets
 * `credential_query.unsatisfied` when the rest no longer satisfies the query.
 *
 * STRICTNESS: the per-presentation error results stay in the output, and the authorizer rejects
 * on any error result, so ANY failing presentation (even one answering an optional credential set)
 * rejects the response — the DCQL-TS behaviour. The `[]` result still reports, under
 * `data.discarded`, which presentations §8.6 would have dropped and that the rest satisfies the
 * query. Why: the verifier reports per-presentation crypto failures as errors too (one rule for
 * both services), `/credentials` extraction works per presentation and must never surface a
 * discarded credential as if it had passed, and a wallet that sends something unasked-for or
 * broken is buggy or hostile (§14.9: never rely on the wallet). A false reject costs a retry.
 *
 * `untrusted` holds presentation keys that failed the trustedIssuer policy (checked before): they
 * are discarded without being matched (§5.0: trust is a per-presentation check), so an issuer
 * nobody trusts costs no query work, and the re-evaluation goes on without them. Claims matching
 * of the whole response spends from one `MatchBudget`.
 */
export function evaluateDcql(
  query: DcqlQuery,
  presentations: ParsedPresentation[],
  viewsOf: (p: ParsedPresentation) => CredentialView[],
  untrusted: ReadonlySet<string>,
  lists?: IssuerAnchorSource,
): QueryEvaluation {
  assertQueryIsConsistent(query);
  const results: PolicyResult[] = [];
  const validQueryIds = new Set<string>();
  const discarded: (string | number)[][] = [];
  const queryIndex = new Map(query.credentials.map((credential, i) => [credential.id, i] as const));
  const counts = new Map<string, number>();
  for (const p of presentations) counts.set(p.queryId, (counts.get(p.queryId) ?? 0) + 1);

  const budget = new MatchBudget();
  for (const presentation of presentations) {
    if (untrusted.has(presentationKey(presentation.path))) {
      discarded.push(presentation.path);
      continue;
    }
    const index = queryIndex.get(presentation.queryId);
    const credentialQuery = index === undefined ? undefined : query.credentials[index];
    const problems: Problem[] = [];
    let claimSets: number[] = [];
    if (credentialQuery === undefined || index === undefined) {
      problems.push({ code: 'credential_query.unknown_query', detail: `the request has no credential query ${JSON.stringify(presentation.queryId)}` });
    } else {
      const pointer = `/credentials/${index}`;
      if (credentialQuery.multiple !== true && (counts.get(presentation.queryId) ?? 0) > 1) {
        problems.push({ code: 'credential_query.cardinality', detail: 'the credential query does not allow multiple presentations', pointer: `${pointer}/multiple` });
      }
      if (!dcqlFormatMatches(credentialQuery.format, presentation)) {
        problems.push({ code: 'credential_query.format_mismatch', detail: `the presentation is not in the ${credentialQuery.format} format the query asks for`, pointer: `${pointer}/format` });
      } else {
        const views = viewsOf(presentation);
        if (views.length === 0) problems.push({ code: 'credential_query.claims_unsatisfied', detail: 'the presentation contains no credential', pointer });
        try {
          for (const view of views) {
            const match = matchCredential(credentialQuery, view, pointer, budget, lists);
            const prefix = view.subIndex === undefined ? '' : `credential ${view.subIndex} of the presentation: `;
            problems.push(...match.problems.map((p) => ({ ...p, detail: prefix + p.detail })));
            if (match.claimSet !== undefined) claimSets.push(match.claimSet);
          }
        } catch (error) {
          if (!(error instanceof MatchBudgetExceeded)) throw error;
          problems.push({ code: 'credential_query.match_budget_exceeded', detail: error.message, pointer: `${pointer}/claims` });
        }
      }
    }
    if (isNonEmpty(problems)) {
      results.push(failed('credentialQuery', presentation.path, problems));
      discarded.push(presentation.path);
      continue;
    }
    claimSets = [...new Set(claimSets)];
    results.push(passed('credentialQuery', presentation.path, { queryId: presentation.queryId, ...(claimSets.length > 0 ? { claimSets } : {}) }));
    validQueryIds.add(presentation.queryId);
  }

  const sets = evaluateCredentialSets(query, validQueryIds);
  if (isNonEmpty(sets.problems)) {
    results.push(failed('credentialQuery', [], sets.problems));
  } else {
    results.push(passed('credentialQuery', [], { satisfied: true, validQueryIds: [...validQueryIds], discarded, ...(sets.sets ? { credentialSets: sets.sets } : {}) }));
  }
  return { results, validQueryIds };
}
