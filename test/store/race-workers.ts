import { fork, type ChildProcess } from 'node:child_process';
import type { ParentMessage, RaceTask, WorkerMessage } from './race-worker.js';

export interface RaceResult {
  /** What each process won, in worker order. */
  won: string[][];
  operations: number;
}

/**
 * Forks one OS process per task, waits until all are connected and ready, releases them at
 * once, and collects what each won.
 */
export async function race(workerFile: string, url: string, keyPrefix: string, tasks: RaceTask[]): Promise<RaceResult> {
  const children: ChildProcess[] = [];
  try {
    const outcomes = tasks.map((task) => {
      const child = fork(workerFile, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      children.push(child);
      let markReady!: () => void;
      const ready = new Promise<void>((resolve) => (markReady = resolve));
      const done = new Promise<{ won: string[]; operations: number }>((resolve, reject) => {
        child.on('message', (message: WorkerMessage) => {
          if (message.type === 'ready') markReady();
          else if (message.type === 'done') resolve(message);
          else reject(new Error(`race worker failed: ${message.message}`));
        });
        child.once('exit', (code) => reject(new Error(`race worker exited early (code ${code})`)));
      });
      // A worker that dies before "ready" must fail the race instead of hanging it.
      done.catch(() => markReady());
      child.send({ type: 'init', url, keyPrefix, task } satisfies ParentMessage);
      return { child, ready, done };
    });
    await Promise.all(outcomes.map((o) => o.ready));
    for (const { child } of outcomes) if (child.connected) child.send({ type: 'go' } satisfies ParentMessage);
    const results = await Promise.all(outcomes.map((o) => o.done));
    return { won: results.map((r) => r.won), operations: results.reduce((n, r) => n + r.operations, 0) };
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill();
  }
}
