import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Checks the built package, as a user installs it: `pnpm -r --filter './packages/**' run build`
// (or `npm test`, which builds) must have run first.
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const dist = (file: string) => join(packageDir, 'dist', file);

// vitest and playwright-core are installed in this workspace, so Node would find them from dist/.
// The child process gets them taken away: a require hook for CJS and a resolve hook for ESM
// (Node 20's ESM hooks do not see require()).
const BLOCKED = /^(vitest|@vitest\/|vite$|playwright)/;
let hooks: string;

beforeAll(() => {
  if (!existsSync(dist('index.cjs')) || !existsSync(dist('index.js'))) {
    throw new Error(`${dist('index.*')} is missing: build the packages first (pnpm -r --filter './packages/**' run build).`);
  }
  hooks = mkdtempSync(join(tmpdir(), 'vp-testing-entry-'));
  writeFileSync(
    join(hooks, 'block.cjs'),
    `const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (${BLOCKED}.test(request)) throw Object.assign(new Error('blocked: ' + request), { code: 'MODULE_NOT_FOUND' });
  return resolve.call(this, request, ...rest);
};
require('node:module').register(${JSON.stringify(pathToFileURL(join(hooks, 'block-esm.mjs')).href)});
`,
  );
  writeFileSync(
    join(hooks, 'block-esm.mjs'),
    `export async function resolve(specifier, context, next) {
  if (${BLOCKED}.test(specifier)) throw Object.assign(new Error('blocked: ' + specifier), { code: 'ERR_MODULE_NOT_FOUND' });
  return next(specifier, context);
}
`,
  );
});
afterAll(() => {
  if (hooks) rmSync(hooks, { recursive: true, force: true });
});

/** Runs `script` in a plain node process, cwd outside the workspace, with vitest and playwright blocked. */
function runNode(args: string[], script: string) {
  const result = spawnSync(process.execPath, ['--require', join(hooks, 'block.cjs'), ...args, script], {
    cwd: hooks,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr };
}

const exposesTheWallet = `console.log(JSON.stringify(['createTestWallet', 'createTestIssuer', 'createTestCa', 'createTestClock'].map((name) => typeof t[name])))`;

describe('the main entry of the built @vp-authorizer/testing', () => {
  it('loads under CommonJS require() with vitest and playwright unresolvable', () => {
    const run = runNode(['-e'], `const t = require(${JSON.stringify(dist('index.cjs'))}); ${exposesTheWallet}`);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(['function', 'function', 'function', 'function']);
  });

  it('loads under ESM import with vitest and playwright unresolvable', () => {
    const url = pathToFileURL(dist('index.js')).href;
    const run = runNode(['--input-type=module', '-e'], `const t = await import(${JSON.stringify(url)}); ${exposesTheWallet}`);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(['function', 'function', 'function', 'function']);
  });

  it('the hooks really take vitest away from the child process', () => {
    // Without this, the two cases above would pass for the wrong reason.
    const required = runNode(['-e'], `require(${JSON.stringify(dist('contracts.cjs'))})`);
    expect(required.status).not.toBe(0);
    expect(required.stderr).toContain('blocked: vitest');
    const imported = runNode(['--input-type=module', '-e'], `await import(${JSON.stringify(pathToFileURL(dist('contracts.js')).href)})`);
    expect(imported.status).not.toBe(0);
    expect(imported.stderr).toContain('blocked: vitest');
  });
});

describe('package.json of @vp-authorizer/testing', () => {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));

  it('declares vitest and playwright-core as optional peers', () => {
    expect(manifest.peerDependenciesMeta.vitest).toEqual({ optional: true });
    expect(manifest.peerDependenciesMeta['playwright-core']).toEqual({ optional: true });
  });

  it('exports the main entry for import and require, and the contract suites for import only', () => {
    expect(manifest.exports['.'].import.default).toBe('./dist/index.js');
    expect(manifest.exports['.'].require.default).toBe('./dist/index.cjs');
    expect(Object.keys(manifest.exports['./contracts'])).toEqual(['import']);
    expect(manifest.exports['./contracts'].import.default).toBe('./dist/contracts.js');
  });
});
