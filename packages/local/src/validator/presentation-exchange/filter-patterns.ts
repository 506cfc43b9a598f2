import { compileFilterPattern, MAX_DEFINITION_PATTERN_PROGRAM, MAX_PATTERN_INPUT, type CompiledFilterPattern } from '@vp-authorizer/core/formats';
import { MatchBudget } from '../match-budget.js';

/**
 * A value the filter refuses to evaluate (longer than MAX_PATTERN_INPUT for a `pattern`): it fails
 * the whole filter, not just the keyword, or `not: { pattern }` would turn "too long to test" into a pass.
 */
export class FilterValueRefused extends Error {
  override readonly name = 'FilterValueRefused';
  constructor(detail: string) {
    super(detail);
  }
}

/**
 * The filter patterns of one wallet response: each distinct pattern compiled once for the
 * linear-time engine, all of them together within the definition's program limit (what creation
 * enforces, held again here for a definition stored before it), and every test charged to the
 * response's budget (`MatchBudget`), which paths and filters spend from as well. A pattern that
 * cannot be compiled makes its filter unsupported (fail closed).
 */
export class FilterPatterns {
  private readonly compiled = new Map<string, CompiledFilterPattern>();
  private program = 0;

  constructor(private readonly budget: MatchBudget = new MatchBudget()) {}

  /** Charge other matching work to the same budget. Throws MatchBudgetExceeded. */
  spend(units: number): void {
    this.budget.spend(units);
  }

  compile(source: string): CompiledFilterPattern {
    let result = this.compiled.get(source);
    if (result === undefined) {
      result = compileFilterPattern(source, MAX_DEFINITION_PATTERN_PROGRAM - this.program);
      if (result.ok) this.program += result.pattern.programSize;
      this.compiled.set(source, result);
    }
    return result;
  }

  /** Whether `value` matches `source`. Throws FilterValueRefused for a value longer than MAX_PATTERN_INPUT, MatchBudgetExceeded when the budget is spent. */
  test(source: string, value: string): boolean {
    if (value.length > MAX_PATTERN_INPUT) throw new FilterValueRefused(`a value longer than ${MAX_PATTERN_INPUT} characters is not tested against a pattern`);
    const result = this.compile(source);
    if (!result.ok) return false;
    return this.budget.test(result.pattern, value);
  }
}
