// Every package a test imports must be declared by the package that owns the test: a test that
// works only because vitest's alias or pnpm's hoisting happens to find the import breaks as soon
// as the package is tested on its own. And no package's tests reach into another package's test
// folder or fixtures: what two packages share lives in @vp-authorizer/testing (CONTRIBUTING.md, "Tests").
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Owner {
  /** Directory relative to the root ('' for the workspace root). */
  dir: string;
  manifest: { name?: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string>; peerDependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
  /** The files whose imports must be declared by this manifest. */
  files: string[];
}

// .next: what `next build` writes in the Next.js example.
const SKIP_DIRS = new Set(['node_modules', 'dist', 'results', '.git', '.next']);
const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/;

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (SKIP_DIRS.has(entry)) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...walk(path));
    else if (CODE.test(entry)) out.push(path);
  }
  return out;
}

/** Test code: test folders, fixtures, *.test.* and test-support files. */
const isTestCode = (path: string) => /(^|[/\\])(test|__fixtures__)[/\\]|\.test\.|test-support|test-fixtures/.test(path);

function readManifest(dir: string): Owner['manifest'] {
  return JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
}

function owners(): Owner[] {
  const list: Owner[] = [];
  const children = (parent: string) => readdirSync(join(root, parent)).filter((name) => statSync(join(root, parent, name, 'package.json'), { throwIfNoEntry: false })?.isFile());
  for (const name of children('packages')) {
    const dir = `packages/${name}`;
    // All of @vp-authorizer/testing's sources are test tooling; elsewhere only the tests and their fixtures.
    const files = walk(join(root, dir)).filter((file) => {
      const path = relative(join(root, dir), file);
      return (name === 'testing' && /^(src|test)[/\\]/.test(path)) || isTestCode(path);
    });
    list.push({ dir, manifest: readManifest(dir), files });
  }
  for (const name of children('examples')) list.push({ dir: `examples/${name}`, manifest: readManifest(`examples/${name}`), files: walk(join(root, 'examples', name)) });
  list.push({ dir: 'bench', manifest: readManifest('bench'), files: walk(join(root, 'bench')) });
  list.push({ dir: '', manifest: readManifest(''), files: [...walk(join(root, 'test')), ...walk(join(root, 'scripts')), join(root, 'vitest.config.ts')] });
  return list;
}

const SPECIFIERS = [
  // Statements start a line; a word "import" inside a string or comment does not.
  /^\s*(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/gm,
  /^\s*import\s*['"]([^'"]+)['"]/gm,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
];

function specifiers(source: string): string[] {
  const found = new Set<string>();
  for (const pattern of SPECIFIERS) for (const match of source.matchAll(pattern)) found.add(match[1]!);
  return [...found];
}

const BUILTINS = new Set(builtinModules);
function packageName(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:') || specifier.startsWith('data:')) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  return BUILTINS.has(name) ? undefined : name;
}

const declared = ({ manifest }: Owner) =>
  new Set([manifest.name, ...Object.keys({ ...manifest.dependencies, ...manifest.devDependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies })]);

/** `packages/<name>` a path belongs to, if any. */
const packageOf = (path: string) => /^packages[/\\]([^/\\]+)/.exec(relative(root, path))?.[1];


describe('test code across the workspace', () => {
  const all = owners();

  it('finds the test files it checks', () => {
    const count = (dir: string) => all.find((o) => o.dir === dir)!.files.length;
    expect(count('packages/local')).toBeGreaterThan(20);
    expect(count('packages/redis')).toBeGreaterThan(3);
    expect(count('')).toBeGreaterThan(30);
  });

  it('imports only packages declared by the package that owns the test (or by the root, for test/)', () => {
    const undeclared: string[] = [];
    for (const owner of all) {
      const known = declared(owner);
      for (const file of owner.files) {
        for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
          const name = packageName(specifier);
          if (name !== undefined && !known.has(name)) undeclared.push(`${relative(root, file)} imports ${name}, not declared in ${owner.dir || '.'}/package.json`);
        }
      }
    }
    expect(undeclared).toEqual([]);
  });

  it("never reaches into another package's test folder or fixtures", () => {
    const reaches: string[] = [];
    for (const owner of all) {
      for (const file of owner.files) {
        const from = packageOf(file);
        for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
          if (!specifier.startsWith('.')) continue;
          const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
          const to = packageOf(target);
          if (to === undefined || to === from) continue;
          const path = relative(root, target);
          if (!isTestCode(path.slice(`packages/${to}/`.length))) continue;
          reaches.push(`${relative(root, file)} → ${path.split(sep).join('/')}`);
        }
      }
    }
    expect(reaches).toEqual([]);
  });

  it('declares no cycle between workspace packages, dev dependencies included (pnpm would build a cycle in parallel)', () => {
    const names = new Map(all.filter((o) => o.manifest.name).map((o) => [o.manifest.name!, o]));
    const edges = (owner: Owner) => [...declared(owner)].filter((name) => name !== owner.manifest.name && names.has(name!)) as string[];
    const cycles: string[] = [];
    const visit = (name: string, path: string[]) => {
      if (path.includes(name)) {
        cycles.push([...path.slice(path.indexOf(name)), name].join(' → '));
        return;
      }
      for (const next of edges(names.get(name)!)) visit(next, [...path, name]);
    };
    for (const name of names.keys()) visit(name, []);
    expect(cycles).toEqual([]);
  });
});
