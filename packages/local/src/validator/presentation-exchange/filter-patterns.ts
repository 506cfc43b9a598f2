import { compileFilterPattern, MAX_DEFINITION_PATTERN_PROGRAM, MAX_PATTERN_INPUT, type CompiledFilterPattern } from '@vp-authorizer/core/formats';
import { MatchBudget } from '../match-budget.js';

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

  /** Whether `value` matches `source`; a value longer than MAX_PATTERN_INPUT does not. Throws MatchBudgetExceeded. */
  test(source: string, value: string): boolean {
    if (value.length > MAX_PATTERN_INPUT) return false;
    const result = this.compile(source);
    if (!result.ok) return false;
    return this.budget.test(result.pattern, value);
  }
}
