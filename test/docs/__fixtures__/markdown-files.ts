// The user documentation this repository publishes, and the fenced code blocks in it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function markdownUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return markdownUnder(path);
    return e.name.endsWith('.md') ? [path] : [];
  });
}

/** README.md, every page under docs/, and each package's README (its npm page); repository-relative. */
export function userDocs(): string[] {
  const packages = readdirSync(join(ROOT, 'packages'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => join(ROOT, 'packages', e.name, 'README.md'))
    .filter((p) => {
      try {
        readFileSync(p);
        return true;
      } catch {
        return false;
      }
    });
  return [join(ROOT, 'README.md'), ...markdownUnder(join(ROOT, 'docs')), ...packages].map((p) => relative(ROOT, p)).sort();
}

export interface CodeBlock {
  /** Repository-relative markdown file. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  code: string;
  /** The reason given by a `<!-- typecheck: skip reason -->` comment right before the fence. */
  skip?: string;
  /** The name given by a `<!-- block: name -->` comment right before the fence. */
  name?: string;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/;

/** Fenced blocks of one markdown file, with the markers in the HTML comments just above each. */
export function codeBlocks(file: string): CodeBlock[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      if (lines[j]!.trim().startsWith(fence!) && lines[j]!.trim().replace(/[`~]/g, '') === '') break;
      body.push(lines[j]!.startsWith(indent!) ? lines[j]!.slice(indent!.length) : lines[j]!);
    }
    const block: CodeBlock = { file, line: i + 1, lang: lang!.toLowerCase(), code: body.join('\n') };
    // Markers: consecutive HTML comment lines directly above the fence.
    for (let k = i - 1; k >= 0 && /^\s*<!--.*-->\s*$/.test(lines[k]!); k--) {
      const skip = /<!--\s*typecheck:\s*skip\b\s*(.*?)\s*-->/.exec(lines[k]!);
      if (skip) block.skip = skip[1] ?? '';
      const name = /<!--\s*block:\s*([\w-]+)\s*-->/.exec(lines[k]!);
      if (name) block.name = name[1];
    }
    blocks.push(block);
    i = j;
  }
  return blocks;
}

export const TYPESCRIPT_LANGS = new Set(['ts', 'typescript', 'js', 'javascript', 'mjs', 'cjs', 'mts', 'cts', 'tsx', 'jsx']);
