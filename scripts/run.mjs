#!/usr/bin/env node
// The two quick-start commands (`npm run demo`, `npm test`) on a fresh machine with only Node 20
// and npm: install the workspace with pnpm (fetched through npx when missing), build, then run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const task = process.argv[2];

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: false, ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function must(cmd, args, what, options) {
  const code = run(cmd, args, options);
  if (code !== 0) {
    console.error(`\n✖ ${what} failed (exit ${code}).`);
    process.exit(code);
  }
}

const hasPnpm = spawnSync('pnpm', ['--version'], { stdio: 'ignore' }).status === 0;
const pnpm = (args) => (hasPnpm ? ['pnpm', args] : ['npx', ['-y', 'pnpm@10', ...args]]);
const pnpmMust = (args, what, options) => must(...pnpm(args), what, options);

function ensureInstalled() {
  // Installed and the lockfile not changed since: nothing to do (a pull that changes the
  // lockfile reinstalls).
  const installed = join(root, 'node_modules', '.pnpm', 'lock.yaml');
  if (existsSync(installed) && newestMtime(join(root, 'pnpm-lock.yaml')) <= newestMtime(installed)) return;
  console.log('› Installing the workspace (pnpm install --frozen-lockfile)…');
  pnpmMust(['install', '--frozen-lockfile'], 'Installing dependencies');
}

/** The newest modification time (ms) under a file or folder, skipping what builds produce. */
function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/**
 * The oldest modification time (ms) of a build's JavaScript files; 0 when there is none. Every
 * build rewrites all of them (a JavaScript-only build leaves older declarations in place).
 */
function oldestOutput(dist) {
  if (!existsSync(dist)) return 0;
  let oldest = Infinity;
  for (const entry of readdirSync(dist, { recursive: true })) {
    const stat = statSync(join(dist, String(entry)));
    if (stat.isFile() && /\.c?js$/.test(String(entry))) oldest = Math.min(oldest, stat.mtimeMs);
  }
  return oldest === Infinity ? 0 : oldest;
}

/** Packages whose sources, manifest or build settings changed after their last build. */
function stalePackages() {
  const shared = Math.max(...['tsup.config.base.ts', 'tsconfig.base.json', 'pnpm-lock.yaml'].map((f) => newestMtime(join(root, f))));
  const stale = [];
  for (const dir of readdirSync(join(root, 'packages'))) {
    const pkg = join(root, 'packages', dir);
    if (!existsSync(join(pkg, 'package.json'))) continue;
    const inputs = Math.max(shared, newestMtime(join(pkg, 'src')), ...['package.json', 'tsup.config.ts', 'tsconfig.json'].map((f) => newestMtime(join(pkg, f))));
    if (inputs > oldestOutput(join(pkg, 'dist'))) stale.push(JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).name);
  }
  return stale;
}

/**
 * `onlyStale`: build only packages changed since their last build (and their dependents: their
 * declarations may carry its types). `jsOnly`: skip the declarations (see tsup.config.base.ts);
 * for running, not for publishing or type-checking against dist.
 */
function build({ onlyStale = false, jsOnly = false } = {}) {
  const options = jsOnly ? { env: { ...process.env, VP_AUTHORIZER_BUILD: 'js' } } : undefined;
  if (onlyStale) {
    const stale = stalePackages();
    if (stale.length === 0) return console.log('› Packages are up to date (nothing to build).');
    console.log(`› Building ${stale.join(', ')} and their dependents (tsup${jsOnly ? ', JavaScript only' : ''})…`);
    // The workspace root depends on the packages too; its own build script is not one of them.
    const workspaceName = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).name;
    return pnpmMust(['-r', ...stale.flatMap((name) => ['--filter', `...${name}`]), '--filter', `!${workspaceName}`, 'run', 'build'], 'Building packages', options);
  }
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
    build({ onlyStale: true, jsOnly: true });
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
    console.log('› Running tests (vitest; Redis and Postgres suites on a private redis-server and PostgreSQL cluster when available)…');
    const [cmd, args] = pnpm(['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(3)]);
    const code = run('node', ['scripts/with-postgres.mjs', 'node', 'scripts/with-redis.mjs', cmd, ...args]);
    summarize(report);
    process.exit(code);
    break;
  }
  case 'tarballs': {
    // Install from source: every publishable package as the tarball npm would publish, with its
    // type declarations, in ./tarballs/ (`npm install ./tarballs/vp-authorizer-core-0.1.0.tgz …`).
    ensureInstalled();
    build();
    const out = join(root, 'tarballs');
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    console.log('› Packing every package into ./tarballs (pnpm pack: workspace versions pinned)…');
    const packed = [];
    for (const dir of readdirSync(join(root, 'packages')).sort()) {
      const manifest = join(root, 'packages', dir, 'package.json');
      if (!existsSync(manifest) || JSON.parse(readFileSync(manifest, 'utf8')).private) continue;
      pnpmMust(['pack', '--pack-destination', out], `Packing packages/${dir}`, { cwd: join(root, 'packages', dir), stdio: ['ignore', 'ignore', 'inherit'] });
      packed.push(dir);
    }
    const files = readdirSync(out).filter((f) => f.endsWith('.tgz'));
    // A tarball without declarations would type-check as `any` in a user's project: refuse it.
    for (const file of files) {
      const listing = spawnSync('tar', ['-tzf', join(out, file)], { encoding: 'utf8' }).stdout;
      if (!/package\/dist\/index\.d\.ts\n/.test(listing) || !/package\/dist\/index\.d\.cts\n/.test(listing)) {
        console.error(`✖ ${file} has no type declarations (dist/index.d.ts and .d.cts)`);
        process.exit(1);
      }
    }
    console.log(`\n${files.length} tarballs in ./tarballs:\n${files.map((f) => `  tarballs/${f}`).join('\n')}`);
    break;
  }
  case 'bench': {
    ensureInstalled();
    build({ onlyStale: true });
    process.exit(run('node', ['bench/run.mjs', ...process.argv.slice(3)]));
    break;
  }
  default:
    console.error('usage: node scripts/run.mjs demo|test|tarballs|bench');
    process.exit(2);
}
