// The API reference (typedoc.json → api-reference/, gitignored) is generated from the published
// declarations of every package entry with treatWarningsAsErrors: a broken {@link}, an unknown
// tag or a public type that is not exported fails here. Needs the packages built.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const out = join(ROOT, '.tmp', `api-reference-${process.pid}`);
afterAll(() => rmSync(out, { recursive: true, force: true }));

it('builds with no warnings and documents every package entry', () => {
  const config = JSON.parse(readFileSync(join(ROOT, 'typedoc.json'), 'utf8')) as { treatWarningsAsErrors?: boolean; entryPoints: string[] };
  expect(config.treatWarningsAsErrors).toBe(true);
  const bin = join(ROOT, 'node_modules/typedoc/bin/typedoc');
  const run = spawnSync(process.execPath, [bin, '--out', out, '--logLevel', 'Warn'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  const output = `${run.stdout}${run.stderr}`;
  expect(run.status, output).toBe(0);
  expect(output).not.toMatch(/\[warning\]|\[error\]/);
  // One module per published entry of every package (`exports` minus ./package.json).
  const modules = readdirSync(join(ROOT, 'packages')).flatMap((dir) => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'packages', dir, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    return Object.keys(manifest.exports)
      .filter((key) => key !== './package.json')
      .map((key) => (key === '.' ? dir : `${dir}_${key.slice(2).replaceAll('/', '_')}`));
  });
  for (const module of modules) expect(existsSync(join(out, 'modules', `${module}.html`)), module).toBe(true);
  expect(existsSync(join(out, 'functions', 'core.createAuthorizer.html'))).toBe(true);
  expect(config.entryPoints).toHaveLength(modules.length);
}, 240_000);
