/** The suite's size is fixed before anything runs: at least 100,000 generated cases per CI run. */
import { afterAll, expect, it } from 'vitest';
import { PLANNED_TOTAL, RUNS } from './__fixtures__/fuzz-budget.js';
import { reportTally } from './__fixtures__/fuzz-harness.js';

afterAll(() => reportTally('budget'));

it('the planned number of generated cases across the hardening suite is at least 100,000', () => {
  console.log(`fuzz plan: ${PLANNED_TOTAL} generated cases (${Object.entries(RUNS).map(([k, v]) => `${k} ${v}`).join(', ')})`);
  // FUZZ_SCALE < 1 is for local iteration only; CI runs the unscaled plan.
  if ((Number(process.env.FUZZ_SCALE ?? '1') || 1) >= 1) expect(PLANNED_TOTAL).toBeGreaterThanOrEqual(100_000);
});
