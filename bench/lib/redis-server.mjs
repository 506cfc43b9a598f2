// A private, throw-away redis-server for the Redis benchmarks (no persistence, its own port),
// pinned to a core with taskset when asked.
import { spawn, execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { freePort } from '../../scripts/free-port.mjs';

export async function startRedis({ cpu } = {}) {
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'];
  const child = cpu !== undefined ? spawn('taskset', ['-c', String(cpu), 'redis-server', ...args], { stdio: 'ignore' }) : spawn('redis-server', args, { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const cli = (...argv) => promisify(execFile)('redis-cli', ['-p', String(port), ...argv], { encoding: 'utf8' }).then((r) => r.stdout.trim());
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('redis-server exited at start');
    if ((await cli('PING').catch(() => '')) === 'PONG') break;
    if (Date.now() > deadline) throw new Error('redis-server did not answer PING within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    cli,
    /** Commands Redis has processed so far (INFO stats). */
    async commandsProcessed() {
      return Number(/total_commands_processed:(\d+)/.exec(await cli('INFO', 'stats'))?.[1] ?? NaN);
    },
    async usedMemory() {
      return Number(/used_memory:(\d+)/.exec(await cli('INFO', 'memory'))?.[1] ?? NaN);
    },
    async stop() {
      child.kill();
      await exited;
    },
  };
}
