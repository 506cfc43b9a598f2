// A throw-away PostgreSQL cluster for tests and benches: initdb into a temporary directory, one
// postgres process on a free 127.0.0.1 port (unix socket in the same directory), trust auth, no
// fsync (a crash of the process loses nothing the OS already has; a crash of the machine does not
// matter for a cluster deleted afterwards). Used by scripts/with-postgres.mjs and the fault tests.
//
// initdb and postgres refuse to run as root: as root, both run as the `postgres` user when it
// exists (Debian's package creates it), else as `nobody`, with the directory owned by that user.
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, chownSync, constants as fsConstants, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from './free-port.mjs';

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

/** The directory holding initdb and postgres: $POSTGRES_BIN, Debian's versioned directories (newest first), then PATH. */
export function postgresBinDir() {
  const candidates = [];
  if (process.env.POSTGRES_BIN) candidates.push(process.env.POSTGRES_BIN);
  try {
    const versions = readdirSync('/usr/lib/postgresql').filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) candidates.push(`/usr/lib/postgresql/${v}/bin`);
  } catch {
    // not Debian's layout
  }
  candidates.push(...(process.env.PATH ?? '').split(delimiter).filter(Boolean));
  for (const dir of candidates) {
    try {
      accessSync(join(dir, 'initdb'), fsConstants.X_OK);
      accessSync(join(dir, 'postgres'), fsConstants.X_OK);
      return dir;
    } catch {
      // not here
    }
  }
  return undefined;
}

export const POSTGRES_SKIP_REASON =
  'POSTGRES SUITE SKIPPED: initdb/postgres not found (install: apt-get install -y postgresql; or set POSTGRES_BIN)';

/** uid/gid to run the server as: ourselves, or when root an unprivileged user. */
function serverUser() {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    if (uid.status === 0 && gid.status === 0) return { name, uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  }
  throw new Error('Running as root, and neither a postgres nor a nobody user exists to run PostgreSQL as.');
}

/**
 * Creates the cluster and starts it. Returns its URL and controls: `kill()` (SIGKILL to the server
 * and every process it started, as a crash would), `start()` (again, after a kill or stop, with
 * crash recovery), `stop()` (fast shutdown) and `dispose()` (stop and delete everything).
 */
export async function startPostgresCluster({ binDir = postgresBinDir(), log = () => undefined } = {}) {
  if (binDir === undefined) throw new Error(POSTGRES_SKIP_REASON);
  const user = serverUser();
  const asUser = user ? { uid: user.uid, gid: user.gid } : {};
  const base = clusterDirectory(user, asUser);
  const dataDir = join(base, 'data');
  const socketDir = join(base, 'socket');
  mkdirSync(socketDir);
  if (user) chownSync(socketDir, user.uid, user.gid);
  // A minimal environment: no PG* variable of the developer's may leak into the server.
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', HOME: base };

  const init = spawnSync(join(binDir, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-locale', '-E', 'UTF8', '--no-sync'], {
    ...asUser,
    env,
    cwd: base,
    encoding: 'utf8',
  });
  if (init.status !== 0) {
    rmSync(base, { recursive: true, force: true });
    throw new Error(`initdb failed (status ${init.status}${user ? `, as ${user.name}` : ''}):\n${init.stdout}\n${init.stderr}`);
  }

  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let server;
  let output = '';
  let exited;

  async function start() {
    if (server && server.exitCode === null && server.signalCode === null) return;
    output = '';
    server = spawn(
      join(binDir, 'postgres'),
      ['-D', dataDir, '-p', String(port), '-k', socketDir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200', '-c', 'shared_buffers=32MB'],
      { ...asUser, env, cwd: base, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    server.stdout.on('data', (chunk) => (output += chunk));
    server.stderr.on('data', (chunk) => {
      output += chunk;
      log(String(chunk));
    });
    const child = server;
    exited = new Promise((resolve) => child.once('exit', resolve));
    await waitReady(child);
  }

  async function waitReady(child) {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) {
        // After a kill, backends of the old server may still hold its shared memory for a moment.
        if (/still in use|already running/i.test(output)) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          return start();
        }
        throw new Error(`postgres exited before accepting connections:\n${output}`);
      }
      const ready = spawnSync(join(binDir, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-t', '1'], { env });
      if (ready.status === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`postgres did not accept connections within ${READY_TIMEOUT_MS} ms:\n${output}`);
  }

  /** SIGKILL to the postmaster and every process it forked (backends, checkpointer, WAL writer…). */
  async function kill() {
    if (!server || server.exitCode !== null || server.signalCode !== null) return;
    const children = childrenOf(server.pid);
    server.kill('SIGKILL');
    for (const pid of children) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await exited;
  }

  async function stop() {
    if (!server || server.exitCode !== null || server.signalCode !== null) return;
    server.kill('SIGINT'); // fast shutdown: roll back open transactions, checkpoint, exit
    const timer = setTimeout(() => server.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  try {
    await start();
  } catch (error) {
    await kill().catch(() => undefined);
    rmSync(base, { recursive: true, force: true });
    throw error;
  }

  return {
    url,
    port,
    socketDir,
    get running() {
      return server !== undefined && server.exitCode === null && server.signalCode === null;
    },
    output: () => output,
    start,
    stop,
    kill,
    async dispose() {
      await stop();
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh temporary directory the server's user owns and can reach. As root, a TMPDIR under a
 * private home (/root/tmp) is out of reach of the unprivileged user: fall back to /tmp then.
 */
function clusterDirectory(user, asUser) {
  for (const parent of user ? [tmpdir(), '/tmp'] : [tmpdir()]) {
    const dir = mkdtempSync(join(parent, 'vpa-postgres-'));
    if (!user) return dir;
    chownSync(dir, user.uid, user.gid);
    if (spawnSync('test', ['-w', dir, '-a', '-x', dir], asUser).status === 0) return dir;
    rmSync(dir, { recursive: true, force: true });
  }
  throw new Error(`No temporary directory reachable by the ${user.name} user (tried $TMPDIR and /tmp).`);
}

/** Direct children of `pid` (Linux /proc). */
function childrenOf(pid) {
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Field 4 is the parent pid; the command name (field 2) may hold spaces, so split after its ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return found;
}
