/**
 * Child process of the cross-process race tests (bundled by bundle-worker.ts, run with
 * child_process.fork). Connects its own redisStore, reports ready, waits for "go", then fires
 * its whole share of the race at once and reports what it won. Never logs keys or values.
 */
import { redisStore } from '@vp-authorizer/redis';
import type { AuthorizationRecord } from '@vp-authorizer/core';

export type RaceTask =
  | { kind: 'consume'; keys: string[] }
  | { kind: 'claim'; targets: { instanceId: string; id: string }[]; attempts: number; worker: number };

export type ParentMessage = { type: 'init'; url: string; keyPrefix: string; task: RaceTask } | { type: 'go' };
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'done'; won: string[]; operations: number }
  | { type: 'failed'; message: string };

const send = (message: WorkerMessage) => process.send!(message);

process.once('message', async (init: ParentMessage) => {
  try {
    if (init.type !== 'init') throw new Error('expected init');
    const store = redisStore({ url: init.url, keyPrefix: init.keyPrefix, commandTimeoutMs: 10_000 });
    const task = init.task;
    // Everything that is not the race itself happens before "ready": connecting, reading records.
    const records = new Map<string, AuthorizationRecord>();
    if (task.kind === 'claim') {
      for (const target of task.targets) {
        const record = await store.get(target.instanceId, target.id);
        if (record === null) throw new Error('race record missing');
        records.set(target.id, record);
      }
    } else {
      await store.consume('warm-up:none');
    }
    const go = new Promise<void>((resolve) => process.once('message', () => resolve()));
    send({ type: 'ready' });
    await go;

    let won: string[];
    let operations: number;
    if (task.kind === 'consume') {
      const results = await Promise.all(task.keys.map(async (key) => ((await store.consume(key)) === null ? null : key)));
      won = results.filter((key): key is string => key !== null);
      operations = task.keys.length;
    } else {
      const claims = [...records.values()].flatMap((record) =>
        Array.from({ length: task.attempts }, (_, attempt) => {
          // A marker naming this worker and attempt, to check that the stored claim is the winner's.
          const marker = `${task.worker}:${attempt}`;
          const next: AuthorizationRecord = {
            ...record,
            version: record.version + 1,
            status: 'pending',
            responseClaimedAt: record.createdAt + 1,
            policyResults: [{ path: [], policy: 'race', service: 'authorizer', data: { marker } }],
          };
          return store.compareAndSet(next, record.version).then((ok) => (ok ? `${record.id}/${marker}` : null));
        }),
      );
      won = (await Promise.all(claims)).filter((w): w is string => w !== null);
      operations = claims.length;
    }
    await store.close();
    send({ type: 'done', won, operations });
  } catch (error) {
    send({ type: 'failed', message: error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error' });
  }
  process.disconnect();
});
