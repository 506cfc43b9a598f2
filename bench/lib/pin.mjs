// Where the machine has two cores or more and taskset is installed, a measured server runs on core
// 0 and its load generator on core 1, so neither takes CPU from the other and both kinds of server
// compared in one benchmark see the same arrangement.
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { hasTool } from './tools.mjs';

export const SERVER_CPU = 0;
export const CLIENT_CPU = 1;

/** Whether servers and clients can be kept on separate cores here. */
export function canPin() {
  return cpus().length >= 2 && hasTool('taskset');
}

/**
 * Pin every thread of this process (the event loop and libuv's pool, whose later threads inherit
 * it) to `cpu`; resolves to a function that restores the affinity it had.
 */
export function pinThisProcess(cpu) {
  const before = spawnSync('taskset', ['-p', String(process.pid)], { encoding: 'utf8' }).stdout?.match(/mask:\s*([0-9a-f]+)/i)?.[1];
  const pinned = spawnSync('taskset', ['-a', '-p', '-c', String(cpu), String(process.pid)], { stdio: 'ignore' });
  if (pinned.status !== 0 || !before) throw new Error(`taskset could not pin process ${process.pid} to core ${cpu}`);
  return () => void spawnSync('taskset', ['-a', '-p', before, String(process.pid)], { stdio: 'ignore' });
}
