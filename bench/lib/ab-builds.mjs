// A/B builds for in-process tools: BUILDS=label=<dir>,… where each <dir> holds copies of
// packages/core, packages/local and packages/trust-lists (package.json + dist), made by `node bench/lib/ab-builds.mjs
// save <dir>`; their dependencies resolve to the ones the workspace packages use.
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PACKAGES = ['core', 'local', 'trust-lists'];

/** Copies the current builds of core, local and trust-lists into <dir>/node_modules/@vp-authorizer/. */
export function saveBuilds(dir) {
  rmSync(dir, { recursive: true, force: true });
  const modules = join(dir, 'node_modules');
  for (const name of PACKAGES) {
    const source = join(root, 'packages', name);
    const target = join(modules, '@vp-authorizer', name);
    mkdirSync(target, { recursive: true });
    cpSync(join(source, 'package.json'), join(target, 'package.json'));
    cpSync(join(source, 'dist'), join(target, 'dist'), { recursive: true });
    const { dependencies = {} } = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));
    for (const dep of Object.keys(dependencies)) {
      if (dep.startsWith('@vp-authorizer/')) continue;
      const link = join(modules, dep);
      if (existsSync(link)) continue;
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(realpathSync(join(source, 'node_modules', dep)), link);
    }
  }
}

/**
 * The modules of one saved build (or of the workspace when dir is undefined): core's entry, its
 * `/formats` and `/internal` entries (absent from builds older than them), and local.
 */
export async function loadBuild(dir) {
  const optional = (specifier) => import(specifier).catch(() => undefined);
  if (dir === undefined) {
    return { core: await import('@vp-authorizer/core'), formats: await import('@vp-authorizer/core/formats'), internal: await optional('@vp-authorizer/core/internal'), local: await import('@vp-authorizer/local') };
  }
  const entry = (name, file = 'index.js') => pathToFileURL(join(dir, 'node_modules/@vp-authorizer', name, 'dist', file)).href;
  return { core: await import(entry('core')), formats: await optional(entry('core', 'formats/index.js')), internal: await optional(entry('core', 'internal.js')), local: await import(entry('local')) };
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'save') saveBuilds(resolve(process.argv[3]));
