#!/usr/bin/env node
// Usage: node scripts/with-redis.mjs <command...>
// Runs <command> with REDIS_URL pointing at a throw-away redis-server on a free 127.0.0.1 port
// (no persistence), then stops the server and exits with the command's exit code.
// Without redis-server on PATH: fails under CI, otherwise runs the command without REDIS_URL
// after a loud banner (the Redis suites then skip, and say so).
import { spawn } from 'node:child_process';
import { accessSync, constants as fsConstants } from 'node:fs';
import { createConnection } from 'node:net';
import { constants } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from './free-port.mjs';

const SKIP_REASON = 'REDIS SUITE SKIPPED: redis-server not found on PATH (install: apt-get install -y redis-server)';
const READY_TIMEOUT_MS = 10_000;

const command = process.argv.slice(2);
if (command.length === 0) {
  console.error('usage: node scripts/with-redis.mjs <command...>');
  process.exit(2);
}

const redisServer = findOnPath('redis-server');
// The command gets only the Redis this script starts (or none): never a developer's real one.
const env = { ...process.env };
delete env.REDIS_URL;

if (redisServer === undefined) {
  if (process.env.CI) {
    console.error(`\n${'!'.repeat(80)}\nCI must run the Redis store suites, but redis-server is not on PATH.\n${SKIP_REASON}\n${'!'.repeat(80)}\n`);
    process.exit(1);
  }
  console.warn(`\n${'='.repeat(100)}\n  ${SKIP_REASON}\n${'='.repeat(100)}\n`);
  process.exit(await run(command, env));
}

const port = await freePort();
const redis = spawn(
  redisServer,
  ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'warning'],
  { stdio: ['ignore', 'pipe', 'pipe'] },
);
let redisLog = '';
redis.stdout.on('data', (chunk) => (redisLog += chunk));
redis.stderr.on('data', (chunk) => (redisLog += chunk));
const redisExited = new Promise((resolve) => redis.once('exit', resolve));

let code = 1;
try {
  await waitForPong(port, redisExited);
  env.REDIS_URL = `redis://127.0.0.1:${port}`;
  console.log(`[with-redis] redis-server ready on ${env.REDIS_URL}`);
  code = await run(command, env);
} catch (error) {
  console.error(`[with-redis] ${error instanceof Error ? error.message : String(error)}\n${redisLog}`);
} finally {
  if (redis.exitCode === null) {
    redis.kill('SIGTERM');
    await redisExited;
  }
}
process.exit(code);

function findOnPath(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, fsConstants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

async function waitForPong(port, exited) {
  let gone = false;
  exited.then(() => (gone = true));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (gone) throw new Error('redis-server exited before answering PING.');
    if (await ping(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server did not answer PING within ${READY_TIMEOUT_MS} ms.`);
}

function ping(port) {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk;
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

function run(argv, childEnv) {
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: 'inherit', env: childEnv });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.once('error', (error) => {
      console.error(`[with-redis] could not start ${argv[0]}: ${error.message}`);
      resolve(127);
    });
    child.once('exit', (exitCode, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(exitCode ?? 128 + (constants.signals[signal] ?? 0));
    });
  });
}
