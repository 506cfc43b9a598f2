// The user docs (README.md, docs/, each package's README = its npm page, the examples' READMEs)
// speak of specs, the hosted API and the library, never of how this project is organised
// internally; package READMEs work on npm (a title, an install line, only absolute links); no
// placeholder repository URL ships in a package.json; relative links in the repository resolve.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, userDocs } from './__fixtures__/markdown-files.js';

const examplesReadmes = readdirSync(join(ROOT, 'examples'))
  .map((e) => `examples/${e}/README.md`)
  .filter((p) => existsSync(join(ROOT, p)));
const docs = [...userDocs(), ...examplesReadmes].filter((f) => !f.endsWith('openapi.json'));
const packages = readdirSync(join(ROOT, 'packages')).filter((p) => existsSync(join(ROOT, 'packages', p, 'package.json')));

/** Words that only make sense inside this project's own process. */
const INTERNAL = [
  /\bthe seed\b/i,
  /\bchecklist\b/i,
  /\bthe reference\b/i,
  /\bissue\s+#?\d+/i,
  /\bpeer landscape\b/i,
  /\bdesign(\.md| section| doc)\b/i,
  /\bwire-api\.md\b/i,
  /\/work\//,
];

/** Pages the docs link to that are maintained outside this set of pages (they may land separately). */
const MAINTAINED_ELSEWHERE = new Set(['docs/examples/demo.md', 'docs/observability.md']);

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
const anchorsOf = (path: string) =>
  new Set(
    readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => /^#{1,6}\s/.test(l))
      .map((l) => slug(l.replace(/^#+\s/, ''))),
  );

const lines = (file: string) => readFileSync(join(ROOT, file), 'utf8').split('\n');
const links = (file: string) =>
  lines(file).flatMap((text, i) => [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => ({ line: i + 1, target: m[1]! })));

describe('user docs', () => {
  it('use no internal vocabulary', () => {
    const hits = docs.flatMap((file) =>
      lines(file).flatMap((text, i) => INTERNAL.filter((re) => re.test(text)).map((re) => `${file}:${i + 1}: ${re} in "${text.trim()}"`)),
    );
    expect(hits).toEqual([]);
  });

  it('link only to files and headings that exist in the repository', () => {
    const missing: string[] = [];
    for (const file of docs) {
      for (const { line, target } of links(file)) {
        if (/^[a-z]+:/i.test(target)) continue;
        const [pathPart, anchor] = target.split('#');
        const path = pathPart ? join(dirname(join(ROOT, file)), pathPart) : join(ROOT, file);
        const relativePath = path.slice(ROOT.length);
        if (existsSync(path)) {
          if (anchor && path.endsWith('.md') && !anchorsOf(path).has(anchor)) missing.push(`${file}:${line}: ${target} (no such heading)`);
          continue;
        }
        if (MAINTAINED_ELSEWHERE.has(relativePath)) {
          console.warn(`${file}:${line}: ${target} is not written yet (maintained alongside these docs)`);
          continue;
        }
        missing.push(`${file}:${line}: ${target}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('README.md', () => {
  it('keeps the quick start to the two commands npm run demo and npm test', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('\n## ', readme.indexOf('## Quick start') + 1));
    const commands = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n')).map((l) => l.replace(/#.*$/, '').trim()).filter(Boolean);
    expect(commands).toEqual(['npm run demo', 'npm test']);
  });

  it('links every page of docs/', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const pages = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).filter((p) => p.endsWith('.md'));
    expect(pages.filter((p) => !readme.includes(`](docs/${p})`) && !readme.includes(`](docs/${p}#`))).toEqual([]);
  });
});

describe.each(packages)('packages/%s on npm', (pkg) => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'packages', pkg, 'package.json'), 'utf8')) as { name: string; repository?: unknown; homepage?: unknown; bugs?: unknown };
  const readme = `packages/${pkg}/README.md`;

  it('has a README titled with the package name, with an install line', () => {
    const text = readFileSync(join(ROOT, readme), 'utf8');
    expect(text.split('\n')[0]).toBe(`# ${manifest.name}`);
    expect(text).toMatch(new RegExp(`(npm install|pnpm add)( -D)? [^\\n]*${manifest.name.replace('/', '\\/')}`));
  });

  it('links only to absolute URLs or anchors (relative links break on the npm page)', () => {
    const relative = links(readme).filter(({ target }) => !/^https:\/\//.test(target) && !target.startsWith('#'));
    expect(relative.map(({ line, target }) => `${readme}:${line}: ${target}`)).toEqual([]);
  });

  it('names no placeholder URL in package.json', () => {
    const text = JSON.stringify([manifest.repository, manifest.homepage, manifest.bugs]);
    expect(text).not.toMatch(/example\.(invalid|com|org)|localhost|TODO/i);
  });
});
