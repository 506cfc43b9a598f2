/**
 * A redis-server of the test's own on a free 127.0.0.1 port, that the test can SIGKILL and start
 * again on the same port. With `persistent`, every write is fsynced to an append-only file in a
 * temporary directory before it is acknowledged, so a SIGKILL loses nothing that was acknowledged.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redisServerPath } from '@vp-authorizer/testing/redis';

export interface RedisProcess {
  url: string;
  port: number;
  /** Kill -9 the server and wait until it is gone. */
  kill(): Promise<void>;
  /** Start it again on the same port (and data directory) and wait for PONG. */
  start(): Promise<void>;
  readonly running: boolean;
  /** How many times it was started again after a kill. */
  readonly restarts: number;
  /** Kills that were sent (each is also a process killed). */
  readonly kills: number;
  /** Kill for good and remove the data directory. */
  dispose(): Promise<void>;
}

export const redisAvailable = (): boolean => redisServerPath() !== undefined;

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startRedis({ persistent }: { persistent: boolean }): Promise<RedisProcess> {
  const binary = redisServerPath();
  if (!binary) throw new Error('redis-server is not on PATH');
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'vpa-faults-redis-'));
  const args = [
    '--port', String(port), '--bind', '127.0.0.1', '--daemonize', 'no', '--loglevel', 'warning', '--dir', dir, '--save', '',
    ...(persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']),
  ];
  let child: ChildProcess | undefined;
  let exited: Promise<unknown> = Promise.resolve();
  let restarts = 0;
  let kills = 0;
  let starts = 0;
  let log = '';

  async function start(): Promise<void> {
    if (child && child.exitCode === null && child.signalCode === null) return;
    const proc = spawn(binary!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    proc.stdout!.on('data', (c) => (log = (log + String(c)).slice(-4000)));
    proc.stderr!.on('data', (c) => (log = (log + String(c)).slice(-4000)));
    exited = new Promise((resolve) => proc.once('exit', resolve));
    let gone = false;
    void exited.then(() => (gone = true));
    const deadline = Date.now() + 10_000;
    for (let i = 0; i < 400 && Date.now() < deadline; i++) {
      if (gone) break;
      if (await ping(port)) {
        if (starts++ > 0) restarts++;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    proc.kill('SIGKILL');
    throw new Error(`redis-server did not come up on ${port}: ${log}`);
  }

  async function kill(): Promise<void> {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    kills++;
    await exited;
  }

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    start,
    get running() {
      return !!child && child.exitCode === null && child.signalCode === null;
    },
    get restarts() {
      return restarts;
    },
    get kills() {
      return kills;
    },
    async dispose() {
      if (child && child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += String(chunk);
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}
