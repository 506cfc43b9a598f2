// The built `vp-authorizer-server` command as a child process on 127.0.0.1, and a same-device flow
// against it with the test wallet. Used by test/standalone-server and test/packaging.
import { spawn, type ChildProcess } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDevSigningKey } from '@vp-authorizer/keys';
import { createTestWallet, type TestIssuer } from '@vp-authorizer/testing';

/** The command as the workspace builds it (packages/server/bin → dist/cli.js). */
export const SERVER_BIN = fileURLToPath(new URL('../../packages/server/bin/vp-authorizer-server.js', import.meta.url));
export const V1 = '/openid4/vp/v1_0';

export interface ServerProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` from the `server.listening` line. */
  origin: string;
  publicBaseUrl: string;
  /** Everything written so far (stdout, then stderr appended as it comes). */
  output(): string;
  /** Parsed JSON lines of stdout. */
  logLines(): Record<string, unknown>[];
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** Waits (bounded) until a log line with this event appears. */
  waitForEvent(event: string): Promise<Record<string, unknown>>;
  stop(): Promise<number | null>;
}

/** Runs the command to its end (for refused configurations): exit code and output. */
export async function runServerToExit(args: string[], env: Record<string, string>, bin = SERVER_BIN): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  // A process that starts instead of refusing would hang this test: the caller's timeout ends it.
  return { code, stdout, stderr };
}

/** Starts the command (PORT=0 unless given) and waits until it listens. */
export async function startServerProcess(args: string[], env: Record<string, string>, { bin = SERVER_BIN, cwd }: { bin?: string; cwd?: string } = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, [bin, ...args], { cwd, env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const logLines = () =>
    stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const waitForEvent = async (event: string) => {
    for (let i = 0; i < 600; i++) {
      const found = logLines().find((line) => line.event === event);
      if (found) return found;
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before logging ${event}:\n${stdout}\n${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no ${event} line after 30 s:\n${stdout}\n${stderr}`);
  };
  const listening = await waitForEvent('server.listening');
  return {
    child,
    origin: listening.origin as string,
    publicBaseUrl: listening.publicBaseUrl as string,
    output: () => `${stdout}${stderr}`,
    logLines,
    exited,
    waitForEvent,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A request-signing key and chain written as PEM files (AUTHZ_SIGNING_KEY_FILE, AUTHZ_SIGNING_CERT_CHAIN_FILE), and the root a wallet trusts. */
export async function writeSigningFiles(dir: string): Promise<{ keyFile: string; chainFile: string; anchorFile: string; rootPem: string }> {
  const { signing, rootCertificatePem } = await generateDevSigningKey({ commonName: 'standalone server test' });
  const keyPem = createPrivateKey({ key: signing.privateKey as import('node:crypto').JsonWebKey, format: 'jwk' }).export({ type: 'pkcs8', format: 'pem' }) as string;
  const files = { keyFile: join(dir, 'signing-key.pem'), chainFile: join(dir, 'signing-chain.pem'), anchorFile: join(dir, 'signing-root.pem') };
  writeFileSync(files.keyFile, keyPem, { mode: 0o600 });
  writeFileSync(files.chainFile, signing.certificateChain.join('\n'));
  writeFileSync(files.anchorFile, rootCertificatePem);
  return { ...files, rootPem: rootCertificatePem };
}

export const PID_QUERY = { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] }, claims: [{ path: ['given_name'] }] }] };

/**
 * A same-device flow: the backend creates an authorization, the test wallet presents an SD-JWT VC
 * from `issuer`, the backend resolves the response code (once) and reads the credentials.
 */
export async function runFlow(publicBaseUrl: string, apiKey: string, issuer: TestIssuer, verifierRootPem: string): Promise<{ authorizationId: string; resolved: unknown; secondResolve: number; claims: unknown }> {
  const rp = (path: string, init: RequestInit = {}) => fetch(`${publicBaseUrl}${V1}${path}`, { ...init, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' } });
  const createdRes = await rp('/authorizations', { method: 'POST', body: JSON.stringify({ responseMode: 'direct_post.jwt', query: { type: 'DCQL', dcql: PID_QUERY } }) });
  if (createdRes.status !== 201) throw new Error(`create answered ${createdRes.status}: ${await createdRes.text()}`);
  const created = (await createdRes.json()) as { authorizationId: string; authorizeUrl: string };
  const wallet = await createTestWallet();
  await wallet.addSdJwtVc(issuer, { vct: 'urn:eudi:pid:1', claims: { given_name: 'Erika' } });
  const request = await wallet.receive(created.authorizeUrl, { verifierTrustAnchors: [verifierRootPem] });
  const answer = await wallet.respond(request);
  if (answer.status !== 200) throw new Error(`the wallet's response answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  const code = new URL((answer.body as { redirect_uri: string }).redirect_uri).searchParams.get('response_code')!;
  const resolve = () => rp('/response-code/resolve', { method: 'POST', body: JSON.stringify({ response_code: code, authorization_id: created.authorizationId }) });
  const resolved = await (await resolve()).json();
  const secondResolve = (await resolve()).status;
  const credentials = (await (await rp(`/authorizations/${created.authorizationId}/credentials`)).json()) as { credentials: { claims: unknown }[] };
  return { authorizationId: created.authorizationId, resolved, secondResolve, claims: credentials.credentials[0]?.claims };
}
