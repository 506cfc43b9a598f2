// The test wallet (and the `vp-authorizer wallet` CLI) follows whatever request_uri it is given:
// it gives up after a timeout and refuses a request object beyond a size cap, closing the connection.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runDevCommand } from '../dev/dev-command.js';
import { listenOnLoopback } from '../http-contract/listen.js';
import { writeUntilClosed } from '../net/write-until-closed.js';
import { receiveAuthorizationRequest } from './receive-request.js';

const MiB = 1024 * 1024;
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});


const authorizeUrl = (origin: string) => `openid4vp://?client_id=x509_hash%3Aabc&request_uri=${encodeURIComponent(`${origin}/request`)}`;

describe('fetching the request_uri', () => {
  it('refuses a request object over maxBodyBytes and closes the connection', async () => {
    let written!: Promise<number>;
    const server = await listenOnLoopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/oauth-authz-req+jwt' });
      written = writeUntilClosed(res, 256 * MiB);
    });
    close = server.close;
    await expect(receiveAuthorizationRequest(authorizeUrl(server.origin), { maxBodyBytes: MiB })).rejects.toThrow(/body over 1048576 bytes/);
    expect(await written).toBeLessThan(32 * MiB);
  });

  it('gives up on a request_uri that does not answer within timeoutMs', async () => {
    const server = await listenOnLoopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/oauth-authz-req+jwt' });
      res.write('eyJ');
    });
    close = async () => {
      server.server.closeAllConnections();
      await server.close();
    };
    await expect(receiveAuthorizationRequest(authorizeUrl(server.origin), { timeoutMs: 200 })).rejects.toThrow(/did not answer within 200 ms/);
  });

  it('the wallet CLI takes --timeout-ms and says so', async () => {
    const server = await listenOnLoopback(() => {});
    close = async () => {
      server.server.closeAllConnections();
      await server.close();
    };
    const dir = mkdtempSync(join(tmpdir(), 'vp-wallet-timeout-'));
    try {
      const io = { lines: [] as string[], out(line: string) { this.lines.push(line); }, err(line: string) { this.lines.push(line); } };
      expect(await runDevCommand(['issuer', 'init', '--dir', dir], io)).toBe(0);
      expect(await runDevCommand(['wallet', authorizeUrl(server.origin), '--dir', dir, '--timeout-ms', '200'], io)).toBe(1);
      expect(io.lines.at(-1)).toMatch(/did not answer within 200 ms/);
      expect(await runDevCommand(['wallet', '--help'], io)).toBe(0);
      expect(io.lines.at(-1)).toMatch(/--timeout-ms[\s\S]*follows the request_uri/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
