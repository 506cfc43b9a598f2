// Every TypeScript/JavaScript block in README.md, docs/ and the package READMEs compiles, strict,
// against the BUILT packages (dist types, resolved through package.json exports as a user's
// project would). A block that is deliberately a fragment says so with
// `<!-- typecheck: skip reason -->` right above its fence; those are listed, never silently passed.
// Needs the packages built: pnpm -r --filter './packages/**' run build.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocProject, type DocProject } from './__fixtures__/doc-project.js';
import { codeBlocks, TYPESCRIPT_LANGS, userDocs, type CodeBlock } from './__fixtures__/markdown-files.js';

const blocks = userDocs().flatMap(codeBlocks).filter((b) => TYPESCRIPT_LANGS.has(b.lang));
const checked = blocks.filter((b) => b.skip === undefined);
const skipped = blocks.filter((b) => b.skip !== undefined);

let project: DocProject;
const fileOf = (b: CodeBlock, i: number) => join(project.dir, `block-${i}.${b.lang.startsWith('j') || b.lang === 'mjs' || b.lang === 'cjs' ? 'mjs' : 'mts'}`);

const diagnostics = new Map<CodeBlock, string[]>();

beforeAll(() => {
  project = createDocProject('docs-type-check');
  const files = checked.map((b, i) => {
    const file = fileOf(b, i);
    writeFileSync(file, b.code);
    project.provide(b.code);
    return file;
  });

  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    moduleDetection: ts.ModuleDetectionKind.Force,
    lib: ['lib.es2023.d.ts'],
    types: ['node'],
    allowJs: true,
    checkJs: true,
    skipLibCheck: true,
    noFallthroughCasesInSwitch: true,
    exactOptionalPropertyTypes: false,
  });
  const all = ts.getPreEmitDiagnostics(program);
  checked.forEach((b, i) => {
    const file = fileOf(b, i);
    const messages = all
      .filter((d) => d.file?.fileName === file)
      .map((d) => {
        const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
        return `${b.file}:${b.line + 1 + line}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      });
    const global = all.filter((d) => !d.file).map((d) => `TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    diagnostics.set(b, [...global, ...messages]);
  });
}, 120_000);

afterAll(() => project?.remove());

describe('code blocks in the user docs', () => {
  it('finds the blocks (README embedding example included)', () => {
    expect(checked.some((b) => b.file === 'README.md')).toBe(true);
    expect(checked.length).toBeGreaterThan(10);
  });

  it.each(checked.map((b) => [`${b.file}:${b.line}`, b] as const))('%s compiles (strict, against dist)', (_where, block) => {
    expect(diagnostics.get(block)).toEqual([]);
  });

  it('lists every block marked as a fragment, each with its reason', () => {
    const list = skipped.map((b) => `  ${b.file}:${b.line} — ${b.skip}`);
    console.info(`code blocks: ${checked.length} type-checked, ${skipped.length} marked as fragments${list.length ? `:\n${list.join('\n')}` : ''}`);
    for (const b of skipped) expect(b.skip, `${b.file}:${b.line} gives no reason for skipping`).not.toBe('');
    // The README's embedding example is never a fragment.
    expect(skipped.filter((b) => b.file === 'README.md')).toEqual([]);
  });
});
