/**
 * The one harness for tests that need several OS processes (races across processes, replicas
 * behind a load balancer, a process SIGKILLed mid-flight): bundle a worker entry, fork N copies,
 * wait until each is ready, call them, stop them. Worker entries use runWorker() from
 * worker-process-child.ts.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FromWorker, ToWorker } from './worker-process-child.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface BundledWorker {
  /** A CommonJS file to run with `node` / child_process.fork. */
  file: string;
  dispose(): Promise<void>;
}

/**
 * Plain `node` cannot run our TypeScript sources (Node 20, no tsx), so child-process workers
 * are bundled from the current sources, never from a possibly stale dist: one CommonJS file
 * with everything inlined (ioredis included), in a temporary directory. About a second.
 */
export async function bundleWorker(entry: string): Promise<BundledWorker> {
  const outDir = await mkdtemp(join(tmpdir(), 'vpa-worker-'));
  const name = basename(entry).replace(/\.ts$/, '');
  const { build } = await import('tsup');
  await build({
    entry: { [name]: join(root, entry) },
    outDir,
    format: ['cjs'],
    platform: 'node',
    target: 'node20',
    noExternal: [/.*/],
    dts: false,
    sourcemap: false,
    splitting: false,
    clean: false,
    silent: true,
    config: false,
    outExtension: () => ({ js: '.cjs' }),
    esbuildOptions(options) {
      // The packages' own `exports` point at dist; bundle the sources instead.
      // An entry's subpaths are listed too: esbuild would otherwise append them to the entry's file.
      options.alias = {
        '@vp-authorizer/core': join(root, 'packages/core/src/index.ts'),
        '@vp-authorizer/core/http': join(root, 'packages/core/src/http/index.ts'),
        '@vp-authorizer/core/formats': join(root, 'packages/core/src/formats/index.ts'),
        '@vp-authorizer/core/internal': join(root, 'packages/core/src/internal.ts'),
        '@vp-authorizer/keys': join(root, 'packages/keys/src/index.ts'),
        '@vp-authorizer/redis': join(root, 'packages/redis/src/index.ts'),
        '@vp-authorizer/testing': join(root, 'packages/testing/src/index.ts'),
      };
    },
  });
  return { file: join(outDir, `${name}.cjs`), dispose: () => rm(outDir, { recursive: true, force: true }) };
}

export interface WorkerProcess<Ready, Command, Reply> {
  readonly child: ChildProcess;
  /** What the worker reported when it was ready. */
  readonly ready: Ready;
  /** Sends a command and waits for its reply; rejects on the worker's error or after `timeoutMs`. */
  call(command: Command, timeoutMs?: number): Promise<Reply>;
  /** Disconnects (the worker closes and exits), SIGKILLs after 5 s; a no-op once it has exited. */
  stop(): Promise<void>;
}

/**
 * Forks one process per init message and resolves once every one reported ready. A worker that
 * fails, exits or stays silent for `readyTimeoutMs` fails the whole start, and the others are stopped.
 */
export async function startWorkers<Init, Ready, Command = never, Reply = never>(
  file: string,
  inits: Init[],
  { readyTimeoutMs = 20_000 }: { readyTimeoutMs?: number } = {},
): Promise<WorkerProcess<Ready, Command, Reply>[]> {
  const children = inits.map(() => fork(file, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  const started = await Promise.allSettled(children.map((child, index) => whenReady<Init, Ready, Command, Reply>(child, inits[index]!, readyTimeoutMs)));
  const workers = started.map((result, index) => (result.status === 'fulfilled' ? result.value : stopped<Ready, Command, Reply>(children[index]!)));
  const failure = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) {
    await Promise.all(workers.map((worker) => worker.stop()));
    throw failure.reason;
  }
  return workers;
}

function whenReady<Init, Ready, Command, Reply>(child: ChildProcess, init: Init, timeoutMs: number): Promise<WorkerProcess<Ready, Command, Reply>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`worker process did not become ready within ${timeoutMs} ms`));
    }, timeoutMs);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`worker process exited early (code ${code})`));
    };
    child.once('exit', onExit);
    child.once('message', (message: FromWorker<Ready, Reply>) => {
      clearTimeout(timer);
      child.off('exit', onExit);
      if (message.type === 'ready') resolve(handleOf<Command, Ready, Reply>(child, message.ready));
      else reject(new Error(`worker process failed: ${message.type === 'failed' ? message.message : message.type}`));
    });
    child.send({ type: 'init', init } satisfies ToWorker<Init, Command>);
  });
}

function handleOf<Command, Ready, Reply>(child: ChildProcess, ready: Ready): WorkerProcess<Ready, Command, Reply> {
  let seq = 0;
  return {
    child,
    ready,
    call(command, timeoutMs = 60_000) {
      const id = ++seq;
      return new Promise<Reply>((resolve, reject) => {
        const done = () => {
          clearTimeout(timer);
          child.off('message', listener);
          child.off('exit', onExit);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`worker process did not answer within ${timeoutMs} ms`));
        }, timeoutMs);
        const onExit = (code: number | null) => {
          done();
          reject(new Error(`worker process exited (code ${code}) before answering`));
        };
        const listener = (message: FromWorker<Ready, Reply>) => {
          if (message.type !== 'reply' || message.seq !== id) return;
          done();
          if ('error' in message) reject(new Error(`worker process failed: ${message.error}`));
          else resolve(message.value);
        };
        child.on('message', listener);
        child.once('exit', onExit);
        child.send({ type: 'call', seq: id, command } satisfies ToWorker<never, Command>);
      });
    },
    stop: () => stop(child),
  };
}

function stopped<Ready, Command, Reply>(child: ChildProcess): WorkerProcess<Ready, Command, Reply> {
  const fail = () => Promise.reject(new Error('worker process did not start'));
  return { child, ready: undefined as Ready, call: fail, stop: () => stop(child) };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  if (child.connected) child.disconnect();
  else child.kill('SIGKILL');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts one worker per init, sends every one the same command at once (all are ready first, so
 * they start together), collects the replies in worker order, and stops them.
 */
export async function callAllOnce<Init, Command, Reply>(file: string, inits: Init[], command: Command): Promise<Reply[]> {
  const workers = await startWorkers<Init, unknown, Command, Reply>(file, inits);
  try {
    return await Promise.all(workers.map((worker) => worker.call(command)));
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
  }
}
