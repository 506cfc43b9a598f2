// The "Develop locally" path of docs/getting-started.md runs as written, in a fresh project
// against the built packages: `issuer init` saves a root, the server block trusts it, and the
// wallet block (curl creates an authorization, `vp-authorizer wallet` answers it) ends with a
// redirect carrying a response code; after the server restarts, the saved root still works.
// Substitutions: `npx vp-authorizer` is the installed bin run with node (npx would look for it in
// the registry too), and the port is a free one instead of 3000.
import { type ChildProcess, exec, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocProject, type DocProject } from './__fixtures__/doc-project.js';
import { codeBlocks } from './__fixtures__/markdown-files.js';

const blocks = codeBlocks('docs/getting-started.md');
const block = (name: string) => {
  const found = blocks.find((b) => b.name === name);
  if (!found) throw new Error(`docs/getting-started.md has no block marked <!-- block: ${name} -->`);
  return found.code;
};

let project: DocProject;
let port = 0;
let server: ChildProcess | undefined;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
    probe.once('error', reject);
  });

/** A shell block as the reader runs it, in the project directory. */
function sh(code: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const script = code.replaceAll('npx vp-authorizer ', 'node node_modules/@vp-authorizer/keys/bin/vp-authorizer.js ').replaceAll('localhost:3000', `localhost:${port}`);
  return new Promise((resolve) => {
    exec(script, { cwd: project.dir, shell: '/bin/sh', encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function startServer(): Promise<void> {
  let output = '';
  server = spawn(process.execPath, ['server.mjs'], { cwd: project.dir, env: { PATH: process.env.PATH, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout!.on('data', (d) => (output += d));
  server.stderr!.on('data', (d) => (output += d));
  for (let i = 0; i < 300 && !output.includes('authorizer on'); i++) {
    if (server.exitCode !== null) throw new Error(`the server block exited (${server.exitCode}):\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(output).toContain(`authorizer on http://localhost:${port}/authz`);
}

async function stopServer(): Promise<void> {
  if (!server || server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((r) => server!.once('exit', r));
  server.kill('SIGTERM');
  await exited;
}

beforeAll(async () => {
  project = createDocProject('develop-locally');
  const serverBlock = block('dev-server');
  // The packages the reader installed: those the server imports, and the two dev dependencies.
  project.provide(`${serverBlock}\nimport '@vp-authorizer/keys';\nimport '@vp-authorizer/testing';`);
  writeFileSync(join(project.dir, 'server.mjs'), ts.transpileModule(serverBlock, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText);
  port = await freePort();
}, 60_000);

afterAll(async () => {
  await stopServer();
  project?.remove();
});

describe('docs/getting-started.md: Develop locally', () => {
  it('saves the test issuer', async () => {
    const run = await sh(block('dev-issuer-init'));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('issuer-root-ca.pem');
  });

  it('the wallet block ends the authorization authorized, and again after the server restarts', async () => {
    for (const round of ['first start', 'after a restart']) {
      await startServer();
      const run = await sh(block('dev-wallet'));
      expect(run.code, `${round}:\n${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stdout).toContain('pid: dc+sd-jwt urn:eudi:pid:1 (given_name, family_name)');
      expect(run.stdout).toMatch(new RegExp(`Redirect: http://localhost:${port}/callback\\?response_code=[\\w-]{20,}`));
      await stopServer();
    }
  }, 120_000);
});
