// A throw-away project directory (under .tmp/, gitignored) in which documentation code resolves
// `@vp-authorizer/*` to this workspace's packages (their package.json exports → dist) and
// third-party packages to where this workspace installed them, as a user's project would.
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { ROOT } from './markdown-files.js';

/** Where a package is installed in this workspace (the root, then each package and example). */
function installed(name: string): string | undefined {
  const homes = [ROOT, ...['packages', 'examples'].flatMap((d) => readdirSync(join(ROOT, d)).map((p) => join(ROOT, d, p)))];
  return homes.map((h) => join(h, 'node_modules', name)).find((p) => existsSync(join(p, 'package.json')));
}

const packageName = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
const typesName = (name: string) => `@types/${name.startsWith('@') ? name.slice(1).replace('/', '__') : name}`;

export interface DocProject {
  dir: string;
  /** Make every package `code` imports resolvable from the project (and its @types, if any). */
  provide(code: string): void;
  remove(): void;
}

export function createDocProject(name: string): DocProject {
  if (!existsSync(join(ROOT, 'packages/core/dist/index.d.ts'))) throw new Error('Build the packages first: pnpm -r --filter ./packages/** run build');
  const dir = join(ROOT, '.tmp', `${name}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  const link = (pkg: string, target: string) => {
    const at = join(dir, 'node_modules', pkg);
    if (existsSync(at)) return;
    mkdirSync(dirname(at), { recursive: true });
    symlinkSync(target, at, 'dir');
  };
  link('@types/node', installed('@types/node')!);
  return {
    dir,
    provide(code) {
      for (const { fileName } of ts.preProcessFile(code, true, true).importedFiles) {
        if (fileName.startsWith('.') || fileName.startsWith('node:')) continue;
        const pkg = packageName(fileName);
        const local = pkg.startsWith('@vp-authorizer/') ? join(ROOT, 'packages', pkg.slice('@vp-authorizer/'.length)) : installed(pkg);
        if (local && existsSync(local)) link(pkg, local);
        const types = installed(typesName(pkg));
        if (types) link(typesName(pkg), types);
      }
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
