// Servers under measurement run in a child process, so the load generator (wrk, or a test wallet
// doing its own cryptography) never shares their event loop or their CPU account. The child
// answers `cpu` with its process.cpuUsage() and `memory` with its heap after a full GC.
import { fork } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./server-child.mjs', import.meta.url));

/** Servers still running; one exit listener kills them all (never leave a server behind, whatever ends the benchmark). */
const live = new Set();
let serversStarted = 0;
process.once('exit', () => {
  for (const child of live) child.kill();
});

/**
 * Start a server described by `spec` (see server-child.mjs) in a child process, pinned to
 * `cpu` with taskset when given, with Node options `execArgv` added. Resolves to `{ origin, info, cpuMicros(), close() }`.
 */
export async function startServerProcess(spec, { cpu, execArgv: nodeOptions = [] } = {}) {
  // BENCH_SERVER_EXEC_ARGV='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the servers under load.
  const execArgv = ['--expose-gc', ...nodeOptions, ...(process.env.BENCH_SERVER_EXEC_ARGV ?? '').split(' ').filter(Boolean)];
  // BENCH_SERVER_LOG_DIR=DIR writes each server's output (with --trace-gc, --trace-opt, …) to a file of its own.
  const logDir = process.env.BENCH_SERVER_LOG_DIR;
  const out = logDir ? 'pipe' : 'inherit';
  const child =
    cpu !== undefined
      ? fork(CHILD, [], { execPath: 'taskset', execArgv: ['-c', String(cpu), process.execPath, ...execArgv], stdio: ['ignore', out, out, 'ipc'] })
      : fork(CHILD, [], { execArgv, stdio: ['ignore', out, out, 'ipc'] });
  if (logDir) {
    mkdirSync(logDir, { recursive: true });
    const name = [++serversStarted, spec.kind, spec.framework, spec.clients].filter(Boolean).join('-');
    const log = createWriteStream(join(logDir, `${name}.log`));
    child.stdout.pipe(log);
    child.stderr.pipe(log);
  }
  const replies = [];
  let waiting;
  child.on('message', (message) => (waiting ? (waiting(message), (waiting = undefined)) : replies.push(message)));
  const ask = (message) =>
    new Promise((resolve, reject) => {
      if (replies.length) return resolve(replies.shift());
      waiting = (reply) => (reply?.error ? reject(new Error(reply.error)) : resolve(reply));
      if (message !== undefined) child.send(message);
    });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  live.add(child);
  exited.then(() => live.delete(child));
  child.send(spec);
  const started = await Promise.race([ask(), exited.then((code) => Promise.reject(new Error(`server child exited (${code}) before listening: ${JSON.stringify(spec.kind)}`)))]);
  if (started.error) throw new Error(started.error);
  return {
    origin: started.origin,
    info: started,
    /** Total user + system CPU time of the server process so far, in microseconds. */
    async cpuMicros() {
      const { user, system } = await ask('cpu');
      return user + system;
    },
    /** Heap used after a full GC, in bytes. */
    async heapUsed() {
      return (await ask('memory')).heapUsed;
    },
    async send(message) {
      return ask(message);
    },
    async close() {
      child.kill();
      await exited;
    },
  };
}
