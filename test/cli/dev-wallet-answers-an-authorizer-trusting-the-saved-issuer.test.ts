// `vp-authorizer issuer init` and `vp-authorizer wallet <authorizeUrl>` (the built bin, each run as
// its own process): the saved issuer root survives restarts of both the wallet and the authorizer,
// a real authorizer on 127.0.0.1 that trusts it ends the authorization `authorized`, and one that
// does not trust it rejects.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { localValidator, localVerifier } from '@vp-authorizer/local';
import { createTestIssuer, startPassThroughAuthorizer, testSigningKey, type PassThroughAuthorizerServer } from '@vp-authorizer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'packages/keys/bin/vp-authorizer.js');
const V1 = '/openid4/vp/v1_0';

/** The command as its own process (asynchronously: the authorizer it talks to runs in this one). */
function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

let dir: string;
let issuerDir: string;
let verifierRoot: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vpa-dev-wallet-'));
  issuerDir = join(dir, '.vp-dev');
  verifierRoot = join(dir, 'verifier-root.pem');
  writeFileSync(verifierRoot, (await testSigningKey()).rootCertificatePem);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An authorizer as a server would start it: trusting the issuer roots read from `rootPem`. */
function startTrusting(rootPem: string): Promise<PassThroughAuthorizerServer> {
  return startPassThroughAuthorizer({
    instance: { validator: localValidator({ trustedIssuers: [rootPem] }), verifier: localVerifier({ trustAnchors: [rootPem] }) },
  });
}

async function create(server: PassThroughAuthorizerServer, credential: Record<string, unknown>): Promise<{ authorizationId: string; authorizeUrl: string }> {
  const res = await server.api(`${V1}/authorizations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: { credentials: [credential] } } }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { authorizationId: string; authorizeUrl: string };
}

const statusOf = async (server: PassThroughAuthorizerServer, id: string) => ((await (await server.api(`${V1}/authorizations/${id}/status`)).json()) as { status: string }).status;

const PID = { id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: [{ path: ['given_name'] }, { path: ['family_name'] }] };
const MDL = { id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: 'org.iso.18013.5.1.mDL' }, claims: [{ path: ['org.iso.18013.5.1', 'family_name'] }, { path: ['org.iso.18013.5.1', 'age_over_18'] }] };

describe('vp-authorizer issuer init', () => {
  it('saves the root and its key (0600), and refuses to replace them without --force', async () => {
    const init = await cli('issuer', 'init', '--dir', issuerDir);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('ISSUER_ROOT_PEM_FILE=');
    expect(readFileSync(join(issuerDir, 'issuer-root-ca.pem'), 'utf8')).toContain('-----BEGIN CERTIFICATE-----');
    expect(statSync(join(issuerDir, 'issuer-root-ca.key.pem')).mode & 0o077).toBe(0);

    const again = await cli('issuer', 'init', '--dir', issuerDir);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already saved');
  });
});

describe('vp-authorizer wallet', () => {
  it('presents a credential from the saved issuer: the authorization ends authorized and the redirect carries a response code', async () => {
    const server = await startTrusting(readFileSync(join(issuerDir, 'issuer-root-ca.pem'), 'utf8'));
    try {
      const created = await create(server, PID);
      const run = await cli('wallet', created.authorizeUrl, '--dir', issuerDir, '--verifier-root', verifierRoot);
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stdout).toContain('pid: dc+sd-jwt urn:eudi:pid:1 (given_name, family_name)');
      expect(run.stdout).toContain(`signature checked against ${verifierRoot}`);
      expect(run.stdout).toMatch(/Redirect: https:\/\/rp\.example\/callback\?response_code=[\w-]{20,}/);
      expect(await statusOf(server, created.authorizationId)).toBe('authorized');
    } finally {
      await server.close();
    }
  });

  it('after a restart of the authorizer and a new wallet process, the same saved root still works (an mDL this time)', async () => {
    const server = await startTrusting(readFileSync(join(issuerDir, 'issuer-root-ca.pem'), 'utf8'));
    try {
      const created = await create(server, MDL);
      const run = await cli('wallet', created.authorizeUrl, '--dir', issuerDir);
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stdout).toContain('mdl: mso_mdoc org.iso.18013.5.1.mDL (org.iso.18013.5.1.family_name, org.iso.18013.5.1.age_over_18)');
      expect(run.stdout).toContain('signature not checked');
      expect(await statusOf(server, created.authorizationId)).toBe('authorized');
    } finally {
      await server.close();
    }
  });

  it('is rejected by an authorizer that does not trust the saved root', async () => {
    const server = await startTrusting((await createTestIssuer()).rootCertificatePem);
    try {
      const created = await create(server, PID);
      const run = await cli('wallet', created.authorizeUrl, '--dir', issuerDir);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('Verifier answered 400: invalid_request');
      expect(await statusOf(server, created.authorizationId)).toBe('rejected');
    } finally {
      await server.close();
    }
  });

  it('declines with --decline: the authorization ends without a presentation', async () => {
    const server = await startTrusting(readFileSync(join(issuerDir, 'issuer-root-ca.pem'), 'utf8'));
    try {
      const created = await create(server, PID);
      const run = await cli('wallet', created.authorizeUrl, '--dir', issuerDir, '--decline');
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stdout).toContain('Declined');
      expect(await statusOf(server, created.authorizationId)).toBe('rejected');
    } finally {
      await server.close();
    }
  });

  it('names the fix when no issuer is saved, or the argument is not an authorizeUrl', async () => {
    const missing = await cli('wallet', 'openid4vp://?client_id=x&request_uri=https%3A%2F%2Frp.example%2Fr', '--dir', join(dir, 'nothing-here'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('run `vp-authorizer issuer init --dir');
    const notUrl = await cli('wallet', 'not a url', '--dir', issuerDir);
    expect(notUrl.code).toBe(2);
    expect(notUrl.stderr).toContain('pass the authorizeUrl the authorizer answered');
  });
});
