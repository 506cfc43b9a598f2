/**
 * The child side of test/__fixtures__/worker-processes.ts, imported by worker entry files (which are
 * bundled and run with child_process.fork). A worker starts from the parent's init message,
 * reports `ready` (with whatever the parent needs, e.g. its origin), then answers calls until the
 * parent disconnects, when it closes and exits. Never logs keys or values.
 */

export type ToWorker<Init, Command> = { type: 'init'; init: Init } | { type: 'call'; seq: number; command: Command };
export type FromWorker<Ready, Reply> =
  | { type: 'ready'; ready: Ready }
  | { type: 'failed'; message: string }
  | { type: 'reply'; seq: number; value: Reply }
  | { type: 'reply'; seq: number; error: string };

export interface StartedWorker<Ready, Command, Reply> {
  ready: Ready;
  /** Answers a call; a throw is reported to the parent as a rejected call. */
  handle?(command: Command): Promise<Reply>;
  close?(): Promise<void>;
}

const describeError = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

export function runWorker<Init, Ready, Command = never, Reply = never>(start: (init: Init) => Promise<StartedWorker<Ready, Command, Reply>>): void {
  const send = (message: FromWorker<Ready, Reply>) => process.send!(message);
  process.once('message', async (message: ToWorker<Init, Command>) => {
    try {
      if (message.type !== 'init') throw new Error('expected an init message first');
      const worker = await start(message.init);
      process.on('message', (call: ToWorker<Init, Command>) => {
        if (call.type !== 'call') return;
        if (!worker.handle) return send({ type: 'reply', seq: call.seq, error: 'this worker takes no calls' });
        worker.handle(call.command).then(
          (value) => send({ type: 'reply', seq: call.seq, value }),
          (error: unknown) => send({ type: 'reply', seq: call.seq, error: describeError(error) }),
        );
      });
      process.once('disconnect', async () => {
        await worker.close?.();
        process.exit(0);
      });
      send({ type: 'ready', ready: worker.ready });
    } catch (error) {
      send({ type: 'failed', message: describeError(error) });
    }
  });
}
