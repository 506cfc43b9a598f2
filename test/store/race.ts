import { callAllOnce } from '../__fixtures__/worker-processes.js';
// Type-only: importing the worker entry itself would start a worker inside the test process.
import type { RaceInit, RaceOutcome, RaceTask } from './race-worker.js';

/** Runs one race-worker process per task against one Redis, released together; what each won, in task order. */
export async function race(file: string, url: string, keyPrefix: string, tasks: RaceTask[]) {
  const outcomes = await callAllOnce<RaceInit, 'go', RaceOutcome>(file, tasks.map((task) => ({ url, keyPrefix, task })), 'go');
  return { won: outcomes.map((o) => o.won), operations: outcomes.reduce((n, o) => n + o.operations, 0) };
}
