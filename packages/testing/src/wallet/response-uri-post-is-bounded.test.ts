// The test wallet posts its response to whatever response_uri the request named: like its
// request_uri fetch, it gives up after a timeout and refuses an answer beyond a size cap.
import { afterEach, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../http-contract/listen.js';
import { writeUntilClosed } from '../net/write-until-closed.js';
import { createTestWallet, type PreparedResponse } from './test-wallet.js';

const MiB = 1024 * 1024;
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

const declined = (origin: string): PreparedResponse => ({ responseMode: 'direct_post', responseUri: `${origin}/response`, payload: {}, form: { error: 'access_denied', state: 's' } });

describe('posting to the response_uri', () => {
  it('gives up on a response_uri that never sends its headers', async () => {
    let posted = false;
    const server = await listenOnLoopback((req) => {
      req.resume();
      posted = true;
    });
    close = async () => {
      server.server.closeAllConnections();
      await server.close();
    };
    const wallet = await createTestWallet();
    await expect(wallet.submit(declined(server.origin), { timeoutMs: 200 })).rejects.toThrow(/response_uri did not answer within 200 ms/);
    expect(posted).toBe(true);
  });

  it('gives up on a response_uri whose answer never ends', async () => {
    const server = await listenOnLoopback((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"redirect_uri":"');
    });
    close = async () => {
      server.server.closeAllConnections();
      await server.close();
    };
    const wallet = await createTestWallet();
    await expect(wallet.submit(declined(server.origin), { timeoutMs: 200 })).rejects.toThrow(/response_uri did not answer within 200 ms/);
  });

  it('refuses an answer over maxBodyBytes and closes the connection', async () => {
    let written!: Promise<number>;
    const server = await listenOnLoopback((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      written = writeUntilClosed(res, 256 * MiB);
    });
    close = server.close;
    const wallet = await createTestWallet();
    await expect(wallet.submit(declined(server.origin), { maxBodyBytes: MiB })).rejects.toThrow(/response_uri answered a body over 1048576 bytes/);
    expect(await written).toBeLessThan(32 * MiB);
  });

  it('reads an answer within the bounds as before', async () => {
    const server = await listenOnLoopback((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"redirect_uri":"https://rp.example/cb"}');
    });
    close = server.close;
    const wallet = await createTestWallet();
    const answer = await wallet.submit(declined(server.origin), { timeoutMs: 5_000, maxBodyBytes: 64 });
    expect(answer).toMatchObject({ status: 200, body: { redirect_uri: 'https://rp.example/cb' } });
  });
});
