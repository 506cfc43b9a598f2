import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboundFetchPolicy, outboundGet, outboundPost, type OutboundGetRequest } from './outbound-fetch-policy.js';

// A raw TCP server on 127.0.0.1 so responses can misbehave byte by byte (loopback needs the test
// escape hatch; the bounds under test apply with or without it).
let server: Server;
let base: string;
const hits = new Map<string, number>();
const sockets = new Set<Socket>();

const behaviours: Record<string, (socket: Socket) => void> = {
  '/ok': (s) => s.end('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok'),
  '/declared-large': (s) => s.end(`HTTP/1.1 200 OK\r\ncontent-length: 5000\r\nconnection: close\r\n\r\n${'x'.repeat(5000)}`),
  // No Content-Length and no end: only a streamed count can stop it.
  '/endless': (s) => {
    s.write('HTTP/1.1 200 OK\r\nconnection: close\r\n\r\n');
    const timer = setInterval(() => (s.writable ? s.write('x'.repeat(1024)) : clearInterval(timer)), 1);
    s.on('close', () => clearInterval(timer));
  },
  '/trickle-body': (s) => {
    s.write('HTTP/1.1 200 OK\r\ncontent-length: 1000\r\nconnection: close\r\n\r\n');
    const timer = setInterval(() => s.writable && s.write('x'), 50);
    s.on('close', () => clearInterval(timer));
  },
  '/trickle-headers': (s) => {
    s.write('HTTP/1.1 200 OK\r\nx-slow: ');
    const timer = setInterval(() => s.writable && s.write('a'), 50);
    s.on('close', () => clearInterval(timer));
  },
  '/huge-headers': (s) => s.end(`HTTP/1.1 200 OK\r\nx-pad: ${'a'.repeat(20_000)}\r\ncontent-length: 2\r\n\r\nok`),
  '/redirect': (s) => s.end('HTTP/1.1 302 Found\r\nlocation: /ok\r\ncontent-length: 0\r\nconnection: close\r\n\r\n'),
  '/error': (s) => s.end('HTTP/1.1 500 Internal Server Error\r\ncontent-length: 22\r\nconnection: close\r\n\r\nsecret internal detail'),
  '/truncated': (s) => s.end('HTTP/1.1 200 OK\r\ncontent-length: 100\r\nconnection: close\r\n\r\nonly ten b'),
  '/hang': () => undefined,
};

beforeAll(async () => {
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.once('data', (data) => {
      const path = data.toString('latin1').split(' ')[1] ?? '/';
      hits.set(path, (hits.get(path) ?? 0) + 1);
      (behaviours[path] ?? ((s: Socket) => s.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n')))(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  for (const socket of sockets) socket.destroy();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

const policy = outboundFetchPolicy({ dangerouslyAllowAnyDestination: true, maxHeaderBytes: 8_192 });
const get = (path: string, request: Partial<OutboundGetRequest> = {}) => outboundGet(`${base}${path}`, { accept: '*/*', timeoutMs: 2_000, maxBytes: 1_000, signal: new AbortController().signal, ...request }, policy);

describe('outbound fetch policy: response bounds', () => {
  it('reads a small 2xx body', async () => {
    const response = await get('/ok');
    expect(new TextDecoder().decode(response.body)).toBe('ok');
    expect(response.contentType).toBe('text/plain');
  });

  it('refuses a body larger than maxBytes, declared or streamed', async () => {
    await expect(get('/declared-large')).rejects.toMatchObject({ reason: 'too_large' });
    const started = Date.now();
    await expect(get('/endless')).rejects.toMatchObject({ reason: 'too_large' });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("keeps the first maxBytes of a 2xx POST answer with oversizedBody 'truncate' (pinned or custom fetch), and fails without it", async () => {
    const post = (path: string, oversizedBody?: 'fail' | 'truncate', through = policy) =>
      outboundPost(`${base}${path}`, { contentType: 'application/json', headers: {}, body: new TextEncoder().encode('{}'), timeoutMs: 2_000, maxBytes: 1_000, signal: new AbortController().signal, ...(oversizedBody ? { oversizedBody } : {}) }, through);
    const withFetch = outboundFetchPolicy({ dangerouslyAllowAnyDestination: true, fetch: globalThis.fetch });
    for (const through of [policy, withFetch]) {
      for (const path of ['/declared-large', '/endless']) {
        const response = await post(path, 'truncate', through);
        expect(response.status).toBe(200);
        expect(response.body.byteLength).toBe(1_000);
        await expect(post(path, undefined, through)).rejects.toMatchObject({ reason: 'too_large' });
      }
      await expect(post('/redirect', 'truncate', through)).rejects.toMatchObject({ reason: 'redirect' });
    }
    // A GET (DID documents, status lists) still refuses an oversized body.
    await expect(get('/declared-large')).rejects.toMatchObject({ reason: 'too_large' });
  });

  it('gives up after the deadline on a server that trickles (body or headers), with one deadline for everything', async () => {
    for (const path of ['/trickle-body', '/trickle-headers', '/hang']) {
      const started = Date.now();
      await expect(get(path, { timeoutMs: 300, maxBytes: 100_000 }), path).rejects.toMatchObject({ reason: 'timeout' });
      const elapsed = Date.now() - started;
      expect(elapsed, path).toBeGreaterThanOrEqual(250);
      expect(elapsed, path).toBeLessThan(2_500); // far below the 50 s the trickle would take
    }
  });

  it('refuses oversized response headers', async () => {
    await expect(get('/huge-headers')).rejects.toMatchObject({ reason: 'network' });
  });

  it('refuses a redirect instead of following it', async () => {
    const before = hits.get('/ok') ?? 0;
    await expect(get('/redirect')).rejects.toMatchObject({ reason: 'redirect' });
    expect(hits.get('/ok') ?? 0).toBe(before);
  });

  it('refuses a non-2xx answer without echoing the status or the body', async () => {
    const error = (await get('/error').then(() => undefined, (e: unknown) => e)) as Error;
    expect(error).toMatchObject({ reason: 'http_status' });
    expect(error.message).not.toMatch(/500|secret/);
  });

  it('refuses a body cut short of its Content-Length', async () => {
    await expect(get('/truncated')).rejects.toMatchObject({ reason: 'network' });
  });

  it("rethrows the caller's abort reason", async () => {
    const controller = new AbortController();
    const pending = get('/hang', { signal: controller.signal, timeoutMs: 10_000 });
    setTimeout(() => controller.abort(new Error('caller gave up')), 50);
    await expect(pending).rejects.toThrow('caller gave up');
  });
});
