// scripts/repository-fields.mjs writes `repository` (with the package's `directory`), `homepage`
// and `bugs` into every published package from the repository URL the owners give it, and
// `--check` refuses a package that does not name it (npm's provenance check would refuse it at
// publish). The fields keep `publint --strict` clean. Works on a copy of the manifests.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPT = join(ROOT, 'scripts', 'repository-fields.mjs');
const URL_OF_REPO = 'https://github.com/acme-identity/vp-authorizer';
const published = readdirSync(join(ROOT, 'packages')).filter((name) => {
  try {
    return JSON.parse(readFileSync(join(ROOT, 'packages', name, 'package.json'), 'utf8')).private !== true;
  } catch {
    return false;
  }
});

let copy: string;
const run = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args, '--root', copy], { encoding: 'utf8' });
const manifest = (name: string) => JSON.parse(readFileSync(join(copy, 'packages', name, 'package.json'), 'utf8'));

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'vpa-repository-fields-'));
  for (const name of published) {
    mkdirSync(join(copy, 'packages', name), { recursive: true });
    cpSync(join(ROOT, 'packages', name, 'package.json'), join(copy, 'packages', name, 'package.json'));
  }
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('repository fields of the published packages', () => {
  it('--check refuses packages that do not name the repository, listing each and the command that fixes it', () => {
    const result = run('--check', URL_OF_REPO);
    expect(result.status).toBe(1);
    for (const name of published) expect(result.stderr).toContain(`(packages/${name}/package.json)`);
    expect(result.stderr).toContain(`Run: node scripts/repository-fields.mjs ${URL_OF_REPO}`);
  });

  it('writes repository with each package directory, homepage and bugs, leaving every other member as it was; then --check passes', () => {
    const before = Object.fromEntries(published.map((name) => [name, manifest(name)]));
    expect(run(`${URL_OF_REPO}.git`).status).toBe(0);
    for (const name of published) {
      const after = manifest(name);
      expect(after.repository).toEqual({ type: 'git', url: `git+${URL_OF_REPO}.git`, directory: `packages/${name}` });
      expect(after.homepage).toBe(`${URL_OF_REPO}/tree/main/packages/${name}#readme`);
      expect(after.bugs).toEqual({ url: `${URL_OF_REPO}/issues` });
      const { repository: _r, homepage: _h, bugs: _b, ...rest } = after;
      expect(rest).toEqual(before[name]);
      expect(Object.keys(rest)).toEqual(Object.keys(before[name]));
    }
    const written = readFileSync(join(copy, 'packages', 'core', 'package.json'), 'utf8');
    expect(run('--check', URL_OF_REPO).status).toBe(0);
    expect(run(URL_OF_REPO).status).toBe(0);
    expect(readFileSync(join(copy, 'packages', 'core', 'package.json'), 'utf8')).toBe(written); // a second run changes nothing
  });

  it('refuses anything but an https URL of a repository', () => {
    for (const url of ['http://github.com/acme/vp-authorizer', 'https://github.com/acme', 'https://github.com/acme/vp/tree/main', 'git@github.com:acme/vp.git']) {
      const result = run(url);
      expect(result.status, url).toBe(2);
      expect(result.stderr).toContain("Expected the repository's https URL");
    }
  });

  it('keeps publint --strict clean on a package with the fields written', async () => {
    const dir = join(copy, 'publint', 'client');
    cpSync(join(ROOT, 'packages', 'client'), dir, { recursive: true, filter: (source) => !source.includes('node_modules') });
    writeFileSync(join(dir, 'package.json'), readFileSync(join(copy, 'packages', 'client', 'package.json')));
    const { publint } = await import('publint');
    const { messages } = await publint({ pkgDir: dir, strict: true, pack: 'npm' });
    expect(messages).toEqual([]);
  }, 60_000);
});
