// A project outside this repository installs the packed packages with npm (as `npm run tarballs`
// writes them), type-checks a TypeScript file that imports core, keys, local and express against
// their declarations, and runs it: a wallet completes a flow against it and the backend (a second
// file, on the typed client) creates the authorization and resolves the response code. The same
// project installs the standalone server (@vp-authorizer/server, with the stores it depends on)
// and runs a flow against its `vp-authorizer-server` command. Needs the packages built and the
// npm registry (for third-party dependencies).
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestIssuer, freeLoopbackPort, createTestWallet } from '@vp-authorizer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFlow, startServerProcess, writeSigningFiles } from '../__fixtures__/server-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGES = ['core', 'keys', 'local', 'express', 'client', 'redis', 'postgres', 'server'];
const API_KEY = 'fresh-project-api-key-0123456789';

// The user's file (a .txt so that the workspace import checks do not read it as this test's imports).
const APP = readFileSync(new URL('./__fixtures__/fresh-project-app.mts.txt', import.meta.url), 'utf8');
const RP = readFileSync(new URL('./__fixtures__/fresh-project-rp.mts.txt', import.meta.url), 'utf8');

const sh = (cmd: string, args: string[], cwd: string) => {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
};

let dir = '';
let app: ChildProcess | undefined;
let output = '';
let origin = '';

describe('the packed packages in a fresh npm project', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vp-authorizer-fresh-'));
    const tarballs = join(dir, 'tarballs');
    for (const pkg of PACKAGES) sh('pnpm', ['pack', '--pack-destination', tarballs], join(ROOT, 'packages', pkg));
    const files = readdirSync(tarballs);
    const tarballOf = (pkg: string) => `file:./tarballs/${files.find((f) => f.startsWith(`vp-authorizer-${pkg}-`))!}`;
    // Overrides: the packages' dependencies on each other resolve to the tarballs, not the registry.
    const local = Object.fromEntries(PACKAGES.map((p) => [`@vp-authorizer/${p}`, tarballOf(p)]));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'fresh', private: true, type: 'module', dependencies: local, overrides: local }, null, 2));
    sh('npm', ['install', '--no-audit', '--prefer-offline', 'express@5', 'typescript@5.9', '@types/express@5', '@types/node@20'], dir);
    writeFileSync(join(dir, 'app.mts'), APP);
    writeFileSync(join(dir, 'rp.mts'), RP);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', types: ['node'], skipLibCheck: false, outDir: 'out' }, files: ['app.mts', 'rp.mts'] }),
    );
  }, 600_000);

  afterAll(async () => {
    if (app && app.exitCode === null) {
      const exited = new Promise((r) => app!.once('exit', r));
      app.kill('SIGTERM');
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('type-checks TypeScript files importing core, keys, local, express and client against the shipped declarations', () => {
    // skipLibCheck off: the declarations themselves must check, not only the user's file.
    sh(join(dir, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], dir);
    expect(readFileSync(join(dir, 'out/app.mjs'), 'utf8')).toContain('createAuthorizer');
    expect(readFileSync(join(dir, 'out/rp.mjs'), 'utf8')).toContain('createAuthorizerClient');
  }, 300_000);

  it('runs a flow: the wallet presents, the backend resolves the response code once', async () => {
    const issuer = await createTestIssuer();
    writeFileSync(join(dir, 'issuer-root.pem'), issuer.rootCertificatePem);
    const port = await freeLoopbackPort();
    origin = `http://127.0.0.1:${port}`;
    app = spawn(process.execPath, ['out/app.mjs'], { cwd: dir, env: { PATH: process.env.PATH, PORT: String(port), PUBLIC_BASE_URL: `${origin}/authz`, AUTHZ_API_KEY: API_KEY }, stdio: ['ignore', 'pipe', 'pipe'] });
    app.stdout!.on('data', (d) => (output += d));
    app.stderr!.on('data', (d) => (output += d));
    for (let i = 0; i < 300 && !output.includes('listening'); i++) {
      if (app.exitCode !== null) throw new Error(`the app exited (${app.exitCode}):\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(output).toContain('listening');

    // The backend's file, run as its own process: JSON on its standard output.
    const rp = (...args: string[]) =>
      JSON.parse(
        execFileSync(process.execPath, ['out/rp.mjs', ...args], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH, PUBLIC_BASE_URL: `${origin}/authz`, AUTHZ_API_KEY: API_KEY } }),
      ) as Record<string, string>;
    const created = rp('create') as { authorizationId: string; authorizeUrl: string };
    const wallet = await createTestWallet();
    await wallet.addSdJwtVc(issuer, { vct: 'urn:eudi:pid:1', claims: { given_name: 'Erika' } });
    const request = await wallet.receive(created.authorizeUrl, { verifierTrustAnchors: [readFileSync(join(dir, 'verifier-root.pem'), 'utf8')] });
    const answer = await wallet.respond(request);
    expect(answer.status).toBe(200);
    const code = new URL((answer.body as { redirect_uri: string }).redirect_uri).searchParams.get('response_code')!;
    expect(rp('resolve', code, created.authorizationId)).toEqual({ authorization_id: created.authorizationId, status: 'authorized' });
    expect(rp('resolve', code, created.authorizationId)).toEqual({ type: 'response_code.not_found', status: 404 });
  }, 120_000);

  it('runs a flow against the installed vp-authorizer-server command', async () => {
    const issuer = await createTestIssuer();
    const signing = await writeSigningFiles(dir);
    const server = await startServerProcess(
      [],
      {
        AUTHZ_API_KEY: API_KEY,
        AUTHZ_REDIRECT_URI: 'https://rp.example/login/callback',
        AUTHZ_SIGNING_KEY_FILE: signing.keyFile,
        AUTHZ_SIGNING_CERT_CHAIN_FILE: signing.chainFile,
        ISSUER_ROOT_PEM: issuer.rootCertificatePem,
      },
      { bin: join(dir, 'node_modules/.bin/vp-authorizer-server'), cwd: dir },
    );
    try {
      const flow = await runFlow(server.publicBaseUrl, API_KEY, issuer, signing.rootPem);
      expect(flow.resolved).toEqual({ authorization_id: flow.authorizationId, status: 'authorized' });
      expect((await fetch(`${server.origin}/readyz`)).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 120_000);
});
