import type { Code } from '../errors/error-codes.js';
import type { FilterPattern } from './filter-pattern.js';

/**
 * Work units one wallet response may spend matching filter patterns. A test costs the characters
 * tested (plus one) times the pattern's RE2 program size: the linear-time engine's worst case is
 * proportional to that product (building a DFA state per character, or stepping every program
 * instruction per character). Measured here at 30–100 ns per unit in the worst cases, so the
 * whole budget stays well under a tenth of a second of CPU, while a few dozen ordinary patterns
 * on ordinary claim values spend a few thousand units each.
 */
export const DEFAULT_PATTERN_BUDGET = 1_000_000;

/** Thrown when a response has spent its whole pattern budget; evaluation stops there (a `not` must never turn it into a match). */
export class PatternBudgetExceeded extends Error {
  override readonly name = 'PatternBudgetExceeded';
  readonly code = 'presentation_exchange.pattern_budget_exceeded' satisfies Code;
  constructor() {
    super('matching the filter patterns against this response needs more work than allowed');
  }
}

/**
 * One budget per wallet response, shared by every presentation, field and value: a per-test limit
 * would let a response multiply its work by disclosing many values, or a definition by listing
 * many fields. Once a test would overspend it, it is spent: every later test throws as well.
 */
export class PatternBudget {
  private left: number;

  constructor(readonly limit: number = DEFAULT_PATTERN_BUDGET) {
    this.left = limit;
  }

  /** Units spent so far. */
  get used(): number {
    return this.limit - Math.max(this.left, 0);
  }

  /** Test `value`; throws PatternBudgetExceeded (without running the engine) when the test costs more than is left. */
  test(pattern: FilterPattern, value: string): boolean {
    const cost = (value.length + 1) * pattern.programSize;
    if (this.left < 0 || cost > this.left) {
      this.left = -1;
      throw new PatternBudgetExceeded();
    }
    this.left -= cost;
    return pattern.test(value);
  }
}
