import { callAllOnce } from '../__fixtures__/worker-processes.js';
// Type-only: importing the worker entry itself would start a worker inside the test process.
import type { RaceInit, RaceOutcome, RaceStore, RaceTask } from './race-worker.js';

export type { RaceStore };

/** Runs one race-worker process per task against one shared store, released together; what each won, in task order. */
export async function race(file: string, target: RaceStore, tasks: RaceTask[]) {
  const outcomes = await callAllOnce<RaceInit, 'go', RaceOutcome>(file, tasks.map((task) => ({ target, task })), 'go');
  return { won: outcomes.map((o) => o.won), operations: outcomes.reduce((n, o) => n + o.operations, 0) };
}
