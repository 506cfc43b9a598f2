// A server behind baseUrl that is not the authorizer (a misconfigured proxy, a hostile host) cannot
// make the client buffer without bound: an endless event, an oversized JSON body and a silent event
// stream each end in ResponseLimitError with the connection closed.
import { listenOnLoopback, writeUntilClosed } from '@vp-authorizer/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ResponseLimitError, UnexpectedResponseError, createAuthorizerClient } from '../src/index.js';

const MiB = 1024 * 1024;
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('answer size limits', () => {
  it('closes an event stream whose event grows past maxEventBytes and throws ResponseLimitError', async () => {
    let written!: Promise<number>;
    const server = await listenOnLoopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: status\ndata: ');
      // One endless data line: never a line end, so never a complete event.
      written = writeUntilClosed(res, 256 * MiB);
    });
    close = server.close;
    const client = createAuthorizerClient({ baseUrl: server.origin, apiKey: 'k', maxEventBytes: 16 * 1024 });
    const error = await (async () => {
      try {
        for await (const _ of client.streamAuthorizationEvents('a1')) throw new Error('no event expected');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ResponseLimitError);
    expect(error).toMatchObject({ limit: 'maxEventBytes', value: 16 * 1024, status: 200 });
    // The server saw the connection close after socket buffers' worth, not the 256 MiB it offered.
    expect(await written).toBeLessThan(32 * MiB);
  });

  it('counts the lines of one event together: many short lines past maxEventBytes are refused', async () => {
    const server = await listenOnLoopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`event: status\n${'data: xxxxxxxxxxxxxxxx\n'.repeat(2000)}\n`);
    });
    close = server.close;
    const client = createAuthorizerClient({ baseUrl: server.origin, apiKey: 'k', maxEventBytes: 8 * 1024 });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const status of client.streamAuthorizationEvents('a1')) seen.push(status.status);
      })(),
    ).rejects.toMatchObject({ name: 'ResponseLimitError', limit: 'maxEventBytes' });
    expect(seen).toEqual([]);
  });

  it('closes an event stream that stays silent for idleTimeoutMs', async () => {
    let closed!: Promise<void>;
    const server = await listenOnLoopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: status\ndata: {"status":"created"}\n\n');
      closed = new Promise((resolve) => res.on('close', () => resolve()));
    });
    close = server.close;
    const client = createAuthorizerClient({ baseUrl: server.origin, apiKey: 'k', idleTimeoutMs: 200 });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const status of client.streamAuthorizationEvents('a1')) seen.push(status.status);
      })(),
    ).rejects.toMatchObject({ name: 'ResponseLimitError', limit: 'idleTimeoutMs' });
    expect(seen).toEqual(['created']);
    await closed;
  });

  it('gives up on an event stream whose answer sends no headers within idleTimeoutMs, and closes the connection', async () => {
    let closed!: Promise<void>;
    const server = await listenOnLoopback((req) => {
      closed = new Promise((resolve) => req.socket.on('close', () => resolve()));
    });
    close = async () => {
      server.server.closeAllConnections();
      await server.close();
    };
    const client = createAuthorizerClient({ baseUrl: server.origin, apiKey: 'k', idleTimeoutMs: 200 });
    await expect(
      (async () => {
        for await (const _status of client.streamAuthorizationEvents('a1'));
      })(),
    ).rejects.toMatchObject({ name: 'ResponseLimitError', limit: 'idleTimeoutMs', value: 200, status: 0 });
    await closed;
  });

  it('throws UnexpectedResponseError for a JSON body over maxResponseBytes, chunked or with a Content-Length', async () => {
    let written!: Promise<number>;
    const server = await listenOnLoopback((req, res) => {
      if (req.url!.endsWith('/status')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"status":"');
        written = writeUntilClosed(res, 256 * MiB);
      } else {
        const body = JSON.stringify({ type: 'x', message: 'y'.repeat(2 * MiB) });
        res.writeHead(404, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      }
    });
    close = server.close;
    const client = createAuthorizerClient({ baseUrl: server.origin, apiKey: 'k', maxResponseBytes: MiB });
    const chunked = await client.getAuthorizationStatus('a1').catch((e: unknown) => e);
    expect(chunked).toBeInstanceOf(UnexpectedResponseError);
    expect(chunked).toMatchObject({ name: 'ResponseLimitError', limit: 'maxResponseBytes', value: MiB, status: 200 });
    expect(await written).toBeLessThan(32 * MiB);
    await expect(client.getPolicyResponse('a1')).rejects.toMatchObject({ name: 'ResponseLimitError', limit: 'maxResponseBytes', status: 404 });
  });

  it('refuses a limit that is not a positive integer at construction', () => {
    expect(() => createAuthorizerClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', maxEventBytes: 0 })).toThrow(/maxEventBytes must be a positive integer/);
    expect(() => createAuthorizerClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', idleTimeoutMs: 1.5 })).toThrow(/idleTimeoutMs must be a positive integer/);
  });
});
