/**
 * Worker process of the cross-process race tests (test/__fixtures__/worker-processes.ts). Connects its
 * own store (Redis or Postgres) and reads what it needs before reporting ready; on "go" fires its
 * whole share of the race at once and answers what it won.
 */
import { redisStore } from '@vp-authorizer/redis';
import { postgresStore } from '@vp-authorizer/postgres';
import type { AuthorizationRecord } from '@vp-authorizer/core';
import { runWorker } from '../__fixtures__/worker-process-child.js';

export type RaceTask =
  | { kind: 'consume'; keys: string[] }
  | { kind: 'claim'; targets: { instanceId: string; id: string }[]; attempts: number; worker: number };
/** The shared store every worker connects to. */
export type RaceStore = { kind: 'redis'; url: string; keyPrefix: string } | { kind: 'postgres'; url: string; schema: string };
export interface RaceInit {
  target: RaceStore;
  task: RaceTask;
}
export interface RaceOutcome {
  won: string[];
  operations: number;
}

runWorker<RaceInit, null, 'go', RaceOutcome>(async ({ target, task }) => {
  // Generous bounds: the race queues thousands of operations at once, and must not fail for time.
  const store =
    target.kind === 'redis'
      ? redisStore({ url: target.url, keyPrefix: target.keyPrefix, commandTimeoutMs: 10_000 })
      : postgresStore({ url: target.url, schema: target.schema, poolWaitMs: 30_000, statementTimeoutMs: 10_000, cleanupIntervalMs: 0 });
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
  return {
    ready: null,
    close: () => store.close(),
    async handle() {
      if (task.kind === 'consume') {
        const results = await Promise.all(task.keys.map(async (key) => ((await store.consume(key)) === null ? null : key)));
        return { won: results.filter((key): key is string => key !== null), operations: task.keys.length };
      }
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
      return { won: (await Promise.all(claims)).filter((w): w is string => w !== null), operations: claims.length };
    },
  };
});
