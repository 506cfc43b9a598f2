import { compileFilterPattern, type FilterPattern } from '@vp-authorizer/core/formats';
import { describe, expect, it, vi } from 'vitest';
import { MatchBudget, MatchBudgetExceeded } from './match-budget.js';

const compiled = (source: string): FilterPattern => {
  const result = compileFilterPattern(source);
  if (!result.ok) throw new Error(result.reason);
  return result.pattern;
};

describe('MatchBudget', () => {
  it('charges (characters + 1) × program size per pattern test and refuses, without running, a test that would overspend', () => {
    const pattern = compiled('^a+$');
    const run = vi.spyOn(pattern, 'test');
    const budget = new MatchBudget(10 * pattern.programSize);
    expect(budget.test(pattern, 'aaaa')).toBe(true);
    expect(budget.used).toBe(5 * pattern.programSize);
    expect(() => budget.test(pattern, 'aaaaa')).toThrow(MatchBudgetExceeded);
    expect(run).toHaveBeenCalledTimes(1);
    // Spent for good: even a charge that would fit what was left is refused.
    expect(() => budget.spend(1)).toThrow(MatchBudgetExceeded);
    expect(budget.used).toBe(budget.limit);
  });
});
