import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

const SLOTS = 16_384;

export interface LocalRedisCluster {
  ports: number[];
  stop(): Promise<void>;
}

/**
 * A throw-away Redis Cluster of `size` masters on 127.0.0.1 (no replicas, no persistence),
 * formed with CLUSTER ADDSLOTSRANGE + CLUSTER MEET, so it needs only redis-server.
 */
export async function startRedisCluster(redisServer: string, size = 3): Promise<LocalRedisCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'vpa-cluster-'));
  const processes: ChildProcess[] = [];
  const admins: Redis[] = [];
  const stop = async () => {
    for (const admin of admins) admin.disconnect();
    await Promise.all(
      processes.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const ports: number[] = [];
    while (ports.length < size) {
      const port = await freeClusterPort();
      if (!ports.includes(port)) ports.push(port);
    }
    for (const port of ports) {
      processes.push(
        spawn(
          redisServer,
          ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`,
            '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'warning'],
          { stdio: 'ignore' },
        ),
      );
    }
    for (const port of ports) {
      const admin = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => 50 });
      admin.on('error', () => undefined);
      admins.push(admin);
      await until(() => admin.ping().then((r) => r === 'PONG'), 'node answers PING');
    }
    const per = Math.ceil(SLOTS / size);
    await Promise.all(admins.map((admin, i) => admin.call('CLUSTER', 'ADDSLOTSRANGE', String(i * per), String(Math.min(SLOTS, (i + 1) * per) - 1))));
    for (const port of ports.slice(1)) await admins[0]!.call('CLUSTER', 'MEET', '127.0.0.1', String(port));
    for (const admin of admins) {
      await until(async () => String(await admin.call('CLUSTER', 'INFO')).includes('cluster_state:ok'), 'cluster state ok');
    }
    return { ports, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`local Redis Cluster: timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A free port whose cluster bus port (port + 10000) is free too. */
async function freeClusterPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    if ((await isFree(port)) && (await isFree(port + 10_000))) return port;
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
