import type { FilterPattern } from '@vp-authorizer/core/formats';

/**
 * Work units one wallet response may spend being matched against the query. A relying party's
 * query and a wallet's presentations multiply: 20,000 DCQL claims or Presentation Exchange fields
 * (a megabyte of create body) over an array of 1,000 disclosed values is twenty million
 * comparisons, seconds of CPU. So every step is counted, in one budget for the whole response:
 *
 * - one unit per value a claims path or JSONPath selects, per JSONPath read (and per 8 of its
 *   characters) and filter keyword checked, and per `values`, `const` or `enum` comparison, filter
 *   evaluated, node compared by `const`, or 32 characters counted by `minLength`/`maxLength`;
 * - (characters + 1) × RE2 program size per `pattern` test: the linear-time engine's worst case is
 *   proportional to that product (a DFA state per character, or every instruction per character).
 *
 * Measured here at 30–100 ns per unit in the worst cases: the whole budget stays near a tenth of a
 * second of CPU, while an ordinary query over ordinary credentials spends a few thousand units.
 */
export const DEFAULT_MATCH_BUDGET = 1_000_000;

/** Thrown when a response has spent its whole budget; matching stops there (a `not` must never turn it into a match). */
export class MatchBudgetExceeded extends Error {
  override readonly name = 'MatchBudgetExceeded';
  constructor() {
    super('matching the presentations against the query needs more work than allowed');
  }
}

/**
 * One budget per wallet response, shared by every presentation, claim or field and value: a
 * per-test limit would let a response multiply its work by disclosing many values, or a query by
 * listing many claims. Once spent, every later charge throws as well.
 */
export class MatchBudget {
  private left: number;

  constructor(readonly limit: number = DEFAULT_MATCH_BUDGET) {
    this.left = limit;
  }

  /** Units spent so far. */
  get used(): number {
    return this.limit - Math.max(this.left, 0);
  }

  /** Charge `units`; throws MatchBudgetExceeded when fewer are left. */
  spend(units: number): void {
    if (this.left < 0 || units > this.left) {
      this.left = -1;
      throw new MatchBudgetExceeded();
    }
    this.left -= units;
  }

  /** Test `value` against `pattern`, charged before the engine runs (nothing runs when the test would overspend). */
  test(pattern: FilterPattern, value: string): boolean {
    this.spend((value.length + 1) * pattern.programSize);
    return pattern.test(value);
  }
}
