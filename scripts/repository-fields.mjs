#!/usr/bin/env node
// Writes (or checks) the `repository` (with `directory`), `homepage` and `bugs` fields of every
// published package from the repository's URL. The URL is known only where the project is hosted,
// so it is given here rather than guessed: npm's provenance check refuses a package whose
// `repository.url` does not match the repository the release workflow runs in.
//
//   node scripts/repository-fields.mjs https://github.com/<owner>/<name>           write the fields
//   node scripts/repository-fields.mjs --check https://github.com/<owner>/<name>   exit 1 unless they match
//
// `--root <dir>` works on another checkout (the test uses a copy).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `https://host/owner/name` (a trailing `.git` or `/` dropped), or null for anything else. */
export function repositoryBase(url) {
  const match = /^https:\/\/([a-z0-9.-]+)\/([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?\/?$/.exec(url ?? '');
  return match ? `https://${match[1]}/${match[2]}/${match[3]}` : null;
}

/** The three fields of the package in `directory` (relative to the repository root, `/`-separated). */
export function repositoryFields(base, directory) {
  return {
    repository: { type: 'git', url: `git+${base}.git`, directory },
    homepage: `${base}/tree/main/${directory}#readme`,
    bugs: { url: `${base}/issues` },
  };
}

/** Published packages: every packages/* whose package.json is not private. */
function publishedPackages(root) {
  return readdirSync(join(root, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(root, 'packages', entry.name, 'package.json'))
    .filter((file) => {
      try {
        return JSON.parse(readFileSync(file, 'utf8')).private !== true;
      } catch {
        return false;
      }
    });
}

/** The manifest with the fields set, placed after `license` (or `description`) so diffs stay small. */
function withFields(manifest, fields) {
  const rest = Object.fromEntries(Object.entries(manifest).filter(([key]) => !(key in fields)));
  const keys = Object.keys(rest);
  const after = keys.includes('license') ? 'license' : keys.includes('description') ? 'description' : keys[keys.length - 1];
  const out = {};
  for (const key of keys) {
    out[key] = rest[key];
    if (key === after) Object.assign(out, fields);
  }
  return out;
}

/** Writes or checks every published package; returns the packages that did not match (empty when all do). */
export function run({ root, url, check }) {
  const base = repositoryBase(url);
  if (!base) throw new Error(`Expected the repository's https URL (https://github.com/<owner>/<name>), got ${JSON.stringify(url ?? '')}.`);
  const mismatches = [];
  for (const file of publishedPackages(root)) {
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    const directory = relative(root, join(file, '..')).split('\\').join('/');
    const fields = repositoryFields(base, directory);
    const current = JSON.stringify(Object.keys(fields).map((key) => manifest[key]));
    if (current === JSON.stringify(Object.values(fields))) continue;
    if (check) mismatches.push(`${manifest.name} (${directory}/package.json)`);
    else writeFileSync(file, `${JSON.stringify(withFields(manifest, fields), null, 2)}\n`);
  }
  return mismatches;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const rootAt = args.indexOf('--root');
  const root = rootAt === -1 ? fileURLToPath(new URL('..', import.meta.url)) : args[rootAt + 1];
  const url = args.find((arg, i) => !arg.startsWith('--') && (rootAt === -1 || i !== rootAt + 1));
  try {
    const mismatches = run({ root, url, check });
    if (mismatches.length > 0) {
      console.error(`These packages do not name ${repositoryBase(url)} as their repository (npm's provenance check would refuse them):\n  ${mismatches.join('\n  ')}\nRun: node scripts/repository-fields.mjs ${repositoryBase(url)}  and commit the result.`);
      process.exit(1);
    }
  } catch (error) {
    console.error(error.message);
    process.exit(2);
  }
}
