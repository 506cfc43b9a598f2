/**
 * The webhook outbox across a crash: process A queues status webhooks to a receiver that is down
 * (a few requests hang, the rest answer 503), and is SIGKILLed while it still holds them. Process
 * B, sharing the store (Redis, then PostgreSQL), takes every one of them over once A's leases have
 * run out and delivers it: the receiver (a real HTTP server on 127.0.0.1) gets each `webhook-id`
 * at least once with a valid signature, the same id A had sent for the same change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, TEST_API_KEY, testSigningKey, webhookSignatureProblem, type WebhookReceiver } from '@vp-authorizer/testing';
import { bundleWorker, startWorkers, type BundledWorker, type WorkerProcess } from '../__fixtures__/worker-processes.js';
import { sharedStoreVariants, type StoreVariant } from './__fixtures__/shared-store-variants.js';
import type { OutboxWorkerCommand, OutboxWorkerConfig, OutboxWorkerReply } from './__fixtures__/webhook-outbox-worker.js';

const SECRET = 'whsec_' + Buffer.from('outbox-kill-test-webhook-key-0123456789ab').toString('base64');
const LEASE_MS = 1_000;
/** Authorizations created on A, each queuing one `authorization.created` webhook. */
const QUEUED = 20;

type Worker = WorkerProcess<{ pid: number }, OutboxWorkerCommand, OutboxWorkerReply>;

const STORES = sharedStoreVariants('test/faults/webhooks-queued-by-a-killed-process-are-delivered-by-another.test.ts', 'vpa-outbox-kill');

for (const variant of STORES) {
  describe.skipIf(variant.skip)(`webhooks queued by a process killed with SIGKILL are delivered by another process (${variant.name})`, () => {
    let shared: Awaited<ReturnType<StoreVariant['start']>>;
    let worker: BundledWorker;
    let receiver: WebhookReceiver;
    let a: Worker;
    let b: Worker;
    let receiverUp = false;

    beforeAll(async () => {
      shared = await variant.start();
      // Down while A lives: its first two requests hang (A is killed holding them), the rest get 503.
      receiver = await startWebhookReceiver((n) => (receiverUp ? 200 : n < 2 ? 'hang' : 503));
      worker = await bundleWorker('test/faults/__fixtures__/webhook-outbox-worker.ts');
      const { signing } = await testSigningKey();
      const config: OutboxWorkerConfig = { store: shared.target, apiKey: TEST_API_KEY, signing, webhooks: { url: receiver.url('/hooks'), secret: SECRET }, claimLeaseMs: LEASE_MS };
      [a, b] = (await startWorkers<OutboxWorkerConfig, { pid: number }, OutboxWorkerCommand, OutboxWorkerReply>(worker.file, [config, config])) as [Worker, Worker];
    }, 60_000);

    afterAll(async () => {
      for (const process of [a, b]) await process?.stop();
      await receiver?.close();
      await shared?.dispose();
      await worker?.dispose();
    });

    it('every webhook A queued reaches the receiver from B, signed, under the id A had given it', async () => {
      const { ids: authorizationIds } = await a.call({ type: 'create', count: QUEUED });
      expect(authorizationIds).toHaveLength(QUEUED);
      // A has tried each one at least once (the receiver was down), and holds them all.
      await expect.poll(() => new Set(receiver.received.map((r) => r.headers['webhook-id'])).size, { timeout: 20_000 }).toBe(QUEUED);
      const idsFromA = new Map(receiver.received.map((r) => [(r.json as { data: { authorizationId: string } }).data.authorizationId, String(r.headers['webhook-id'])]));
      const killedAt = receiver.received.length;
      a.child.kill('SIGKILL');
      await new Promise((resolve) => a.child.once('exit', resolve));
      receiverUp = true;

      // B takes each one over once A's lease has run out, and delivers it.
      const delivered = () => new Set(receiver.received.slice(killedAt).filter((r) => r.answer === 200).map((r) => String(r.headers['webhook-id'])));
      await expect.poll(() => delivered().size, { timeout: 30_000, interval: 100 }).toBe(QUEUED);

      expect([...delivered()].sort()).toEqual([...idsFromA.values()].sort());
      for (const id of authorizationIds) expect(idsFromA.get(id)).toMatch(new RegExp(`^msg_${id}_\\d+_created$`));
      for (const r of receiver.received) expect(webhookSignatureProblem(SECRET, r.headers, r.body)).toBeNull();
      // Every 200 came from B (A was dead), which says it took them over from the outbox.
      const { ids: takenOver } = await b.call({ type: 'takenOver' });
      const { ids: deliveredByB } = await b.call({ type: 'delivered' });
      expect(new Set(takenOver)).toEqual(new Set(idsFromA.values()));
      expect(new Set(deliveredByB)).toEqual(new Set(idsFromA.values()));
      console.log(`[faults] webhook outbox on ${variant.name}: ${QUEUED} queued on A, ${killedAt} attempts by A before SIGKILL, ${receiver.received.slice(killedAt).filter((r) => r.answer === 200).length} answered 200 after it (${delivered().size} distinct ids, from B)`);
    }, 60_000);
  });
}
