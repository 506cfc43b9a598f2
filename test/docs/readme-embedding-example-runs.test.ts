// The README's embedding example runs as shown: its `keys` command writes the signing material,
// its TypeScript (compiled as a user's build would) starts Express on Redis with the BUILT packages,
// and a wallet completes a HAIP flow against it that the backend then resolves exactly once.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import ts from 'typescript';
import { createTestIssuer, createTestWallet } from '@vp-authorizer/testing';
import { redisUrlForTests } from '@vp-authorizer/testing/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocProject, type DocProject } from './__fixtures__/doc-project.js';
import { codeBlocks, ROOT } from './__fixtures__/markdown-files.js';

const redisUrl = redisUrlForTests('test/docs/readme-embedding-example-runs.test.ts');
const blocks = codeBlocks('README.md');
const example = blocks.find((b) => b.name === 'readme-embedding')!;
const shell = blocks[blocks.indexOf(example) - 1]!;
const CLI = join(ROOT, 'packages/keys/dist/cli.js');
const API_KEY = 'readme-example-api-key-0123456789';
const V1 = '/openid4/vp/v1_0';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });

let project: DocProject;
let app: ChildProcess | undefined;
let output = '';
let origin = '';
let issuer: Awaited<ReturnType<typeof createTestIssuer>>;

describe.skipIf(redisUrl === undefined)('the README embedding example', () => {
  beforeAll(async () => {
    project = createDocProject('readme-example');
    // The README's own `keys` line, run against the built package instead of the registry.
    const keysLine = shell.code.split('\n').find((l) => l.startsWith('npx @vp-authorizer/keys keys'))!;
    const args = keysLine.replace(/#.*$/, '').trim().split(/\s+/).slice(2);
    const keys = spawnSync(process.execPath, [CLI, ...args], { cwd: project.dir, encoding: 'utf8' });
    expect(keys.status, keys.stderr).toBe(0);

    issuer = await createTestIssuer();
    mkdirSync(join(project.dir, 'trust'));
    writeFileSync(join(project.dir, 'trust/issuer-root.pem'), issuer.rootCertificatePem);

    project.provide(example.code);
    const js = ts.transpileModule(example.code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    writeFileSync(join(project.dir, 'server.mjs'), js);

    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    app = spawn(process.execPath, ['server.mjs'], {
      cwd: project.dir,
      env: { PATH: process.env.PATH, PORT: String(port), PUBLIC_BASE_URL: `${origin}/authz`, REDIS_URL: redisUrl, AUTHZ_API_KEY: API_KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    app.stdout!.on('data', (d) => (output += d));
    app.stderr!.on('data', (d) => (output += d));
    // Up to 20 s for the process to start listening.
    for (let i = 0; i < 200; i++) {
      if (app.exitCode !== null) throw new Error(`the example exited (${app.exitCode}):\n${output}`);
      const ok = await fetch(`${origin}/authz/health`).then((r) => r.status === 204, () => false);
      if (ok) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the example did not answer /authz/health:\n${output}`);
  }, 60_000);

  afterAll(async () => {
    if (app && app.exitCode === null) {
      const exited = new Promise((r) => app!.once('exit', r));
      app.kill('SIGTERM');
      await exited;
    }
    project?.remove();
  });

  it('signs requests with the certificate the keys command wrote and completes a HAIP flow', async () => {
    const rp = (path: string, init: RequestInit = {}) =>
      fetch(`${origin}/authz${V1}${path}`, { ...init, headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', ...init.headers } });

    const createdRes = await rp('/authorizations', {
      method: 'POST',
      body: JSON.stringify({
        responseMode: 'direct_post.jwt',
        profile: 'haip',
        query: { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: [{ path: ['given_name'] }] }] } },
      }),
    });
    expect(createdRes.status).toBe(201);
    const created = (await createdRes.json()) as { authorizationId: string; authorizeUrl: string };

    const wallet = await createTestWallet();
    await wallet.addSdJwtVc(issuer, { vct: 'urn:eudi:pid:1', claims: { given_name: 'Erika', family_name: 'Mustermann' } });
    const rootCa = readFileSync(join(project.dir, 'keys/root-ca.pem'), 'utf8');
    const request = await wallet.receive(created.authorizeUrl, { verifierTrustAnchors: [rootCa] });
    const leaf = readFileSync(join(project.dir, 'keys/signing.pem'), 'utf8');
    const leafBase64 = leaf.replace(/-----[A-Z ]+-----|\s/g, '');
    expect(request.x5c).toEqual([leafBase64]);
    expect(request.clientId).toMatch(/^x509_hash:/);
    const answer = await wallet.respond(request);
    expect(answer.status).toBe(200);

    const redirect = new URL((answer.body as { redirect_uri: string }).redirect_uri);
    expect(`${redirect.origin}${redirect.pathname}`).toBe('https://rp.example.com/done');
    const code = redirect.searchParams.get('response_code')!;
    const resolve = () => rp('/response-code/resolve', { method: 'POST', body: JSON.stringify({ response_code: code }) });
    const first = await resolve();
    expect(await first.json()).toEqual({ authorization_id: created.authorizationId, status: 'authorized' });
    expect((await resolve()).status).toBe(404);

    const credentials = (await (await rp(`/authorizations/${created.authorizationId}/credentials`)).json()) as unknown;
    expect(JSON.stringify(credentials)).toContain('Erika');
  });
});
