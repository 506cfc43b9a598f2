#!/usr/bin/env node
// The two quick-start commands (`npm run demo`, `npm test`) on a fresh machine with only Node 20
// and npm: install the workspace with pnpm (fetched through npx when missing), build, then run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const task = process.argv[2];

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: false, ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function must(cmd, args, what) {
  const code = run(cmd, args);
  if (code !== 0) {
    console.error(`\n✖ ${what} failed (exit ${code}).`);
    process.exit(code);
  }
}

const hasPnpm = spawnSync('pnpm', ['--version'], { stdio: 'ignore' }).status === 0;
const pnpm = (args) => (hasPnpm ? ['pnpm', args] : ['npx', ['-y', 'pnpm@10', ...args]]);
const pnpmMust = (args, what) => must(...pnpm(args), what);

function ensureInstalled() {
  if (existsSync(join(root, 'node_modules', '.pnpm', 'lock.yaml')) && existsSync(join(root, 'packages', 'core', 'node_modules'))) return;
  console.log('› Installing the workspace (pnpm install --frozen-lockfile)…');
  pnpmMust(['install', '--frozen-lockfile'], 'Installing dependencies');
}

function build() {
  console.log('› Building packages (tsup: ESM + CJS + .d.ts)…');
  pnpmMust(['-r', '--filter', './packages/**', 'run', 'build'], 'Building packages');
}

function summarize(file) {
  // Vitest's JSON report → one plain closing line that any CI reader understands.
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    const skipped = report.numPendingTests + report.numTodoTests;
    console.log(`\ntests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
  } catch {
    console.log('\n(no test report was written)');
  }
}

switch (task) {
  case 'demo': {
    ensureInstalled();
    build();
    process.exit(run('node', ['examples/demo/server.mjs', ...process.argv.slice(3)]));
    break;
  }
  case 'test': {
    ensureInstalled();
    build();
    console.log('› Checking package exports (publint --strict)…');
    pnpmMust(['-r', '--filter', './packages/**', 'exec', 'publint', '--strict'], 'publint');
    console.log('› Type-checking (tsc)…');
    pnpmMust(['exec', 'tsc', '-p', 'tsconfig.json'], 'Type-check');
    mkdirSync(join(root, '.tmp'), { recursive: true });
    const report = join(root, '.tmp', 'vitest-report.json');
    console.log('› Running tests (vitest; Redis suite on a private redis-server when available)…');
    const [cmd, args] = pnpm(['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(3)]);
    const code = run('node', ['scripts/with-redis.mjs', cmd, ...args]);
    summarize(report);
    process.exit(code);
    break;
  }
  case 'bench': {
    ensureInstalled();
    build();
    process.exit(run('node', ['bench/run.mjs', ...process.argv.slice(3)]));
    break;
  }
  default:
    console.error('usage: node scripts/run.mjs demo|test|bench');
    process.exit(2);
}
