#!/usr/bin/env node
// Usage: node scripts/with-postgres.mjs <command...>
// Runs <command> with POSTGRES_URL pointing at a throw-away PostgreSQL cluster (initdb into a
// temporary directory, a free 127.0.0.1 port; see postgres-cluster.mjs), then stops the server,
// deletes the cluster and exits with the command's exit code.
// Without PostgreSQL installed: fails under CI, otherwise runs the command without POSTGRES_URL
// after a loud banner (the Postgres suites then skip, and say so).
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { POSTGRES_SKIP_REASON, postgresBinDir, startPostgresCluster } from './postgres-cluster.mjs';

const command = process.argv.slice(2);
if (command.length === 0) {
  console.error('usage: node scripts/with-postgres.mjs <command...>');
  process.exit(2);
}

// The command gets only the cluster this script starts (or none): never a developer's real database.
const env = { ...process.env };
delete env.POSTGRES_URL;

const binDir = postgresBinDir();
if (binDir === undefined) {
  if (process.env.CI) {
    console.error(`\n${'!'.repeat(80)}\nCI must run the Postgres store suites, but PostgreSQL is not installed.\n${POSTGRES_SKIP_REASON}\n${'!'.repeat(80)}\n`);
    process.exit(1);
  }
  console.warn(`\n${'='.repeat(100)}\n  ${POSTGRES_SKIP_REASON}\n${'='.repeat(100)}\n`);
  process.exit(await run(command, env));
}

let cluster;
let code = 1;
try {
  cluster = await startPostgresCluster({ binDir });
  env.POSTGRES_URL = cluster.url;
  console.log(`[with-postgres] PostgreSQL ready on ${cluster.url}`);
  code = await run(command, env);
} catch (error) {
  console.error(`[with-postgres] ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await cluster?.dispose();
}
process.exit(code);

function run(argv, childEnv) {
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: 'inherit', env: childEnv });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.once('error', (error) => {
      console.error(`[with-postgres] could not start ${argv[0]}: ${error.message}`);
      resolve(127);
    });
    child.once('exit', (exitCode, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(exitCode ?? 128 + (constants.signals[signal] ?? 0));
    });
  });
}
