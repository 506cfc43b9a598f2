// The TypeScript blocks of docs/observability.md run as written (compiled as a user's build would,
// against the BUILT packages): each block that exports startAuthorizer() builds an authorizer whose
// signing key loads, in a fresh process, with the issuer root file the snippet reads in place.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { createTestIssuer } from '@vp-authorizer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocProject, type DocProject } from './__fixtures__/doc-project.js';
import { codeBlocks, TYPESCRIPT_LANGS } from './__fixtures__/markdown-files.js';

const blocks = codeBlocks('docs/observability.md').filter((b) => TYPESCRIPT_LANGS.has(b.lang) && b.skip === undefined);
let project: DocProject;

beforeAll(async () => {
  project = createDocProject('observability-snippets');
  mkdirSync(join(project.dir, 'trust'));
  writeFileSync(join(project.dir, 'trust/issuer-root.pem'), (await createTestIssuer()).rootCertificatePem);
}, 60_000);
afterAll(() => project?.remove());

describe('docs/observability.md code blocks', () => {
  it('has blocks that start an authorizer', () => {
    expect(blocks.filter((b) => /export async function startAuthorizer/.test(b.code)).length).toBeGreaterThanOrEqual(2);
  });

  for (const [i, block] of blocks.entries()) {
    it(`runs the block at docs/observability.md:${block.line + 1}`, () => {
      project.provide(block.code);
      const js = ts.transpileModule(block.code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
      writeFileSync(join(project.dir, `block-${i}.mjs`), js);
      // A block exporting startAuthorizer must give an authorizer that is ready; any other block must load.
      const runner = `const m = await import('./block-${i}.mjs');
if (m.startAuthorizer) { const a = await m.startAuthorizer(); await a.ready(); await a.close(); console.log('ready'); }
else console.log('loaded');
process.exit(0);`;
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', runner], { cwd: project.dir, encoding: 'utf8', timeout: 60_000 });
      expect(run.stderr).toBe('');
      expect(run.stdout.trim()).toMatch(/^(ready|loaded)$/);
    }, 90_000);
  }
});
