import { PassThrough } from 'node:stream';
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import type { CoreRequestBody, CoreResponse } from '../wire/core-request.js';
import { clientWentAway, fromNodeRequest, writeNodeResponse, writeNodeResponseInOneHead } from './node-bridge.js';
import { readRequest } from './read-body.js';
import type { BridgedRequest } from './serve.js';

/** What serve() does with a bridged request: the bridge's read, then the body limit. */
const readNode = async (bridged: BridgedRequest, limit: number) => readRequest(await bridged.read(), limit);

/** An IncomingMessage stand-in: a stream with rawHeaders, as node:http hands it over. */
function incoming(rawHeaders: string[], body: string | null, url = '/authz/echo?a=1&a=2'): IncomingMessage {
  const stream = new PassThrough() as unknown as IncomingMessage & PassThrough;
  const headers: Record<string, string> = {};
  for (let i = 0; i < rawHeaders.length; i += 2) headers[rawHeaders[i]!.toLowerCase()] ??= rawHeaders[i + 1]!;
  Object.assign(stream, { method: 'POST', url, rawHeaders, headers, complete: true });
  if (body !== null) stream.end(body);
  return stream;
}

/** A body as text, to compare bytes whatever their typed-array class. */
const text = (body: CoreRequestBody | undefined) => (body?.kind === 'bytes' ? { bytes: Buffer.from(body.bytes).toString() } : body);

const consumed = (req: IncomingMessage) => {
  Object.defineProperty(req, 'readableEnded', { value: true });
  return req;
};

describe('fromNodeRequest', () => {
  it('reads headers like Headers.get over the raw lines: any case, repeats joined in order', async () => {
    const req = incoming(['Content-Type', 'application/json', 'X-Multi', 'a', 'x-multi', 'b'], '{}');
    const core = await readNode(fromNodeRequest(req, { path: '/echo' }), 1024);
    expect(core.headers.get('content-type')).toBe('application/json');
    expect(core.headers.get('X-MULTI')).toBe('a, b');
    expect(core.headers.get('authorization')).toBeNull();
    expect([...core.query]).toEqual([['a', '1'], ['a', '2']]);
    expect(core.path).toBe('/echo');
  });

  it('reads an unread stream itself, capped, and hands no body for an empty one', async () => {
    const read = (body: string) => readNode(fromNodeRequest(incoming([], body), { path: '/' }), 8);
    expect(text((await read('12345678')).body)).toEqual({ bytes: '12345678' });
    await expect(read('123456789')).rejects.toMatchObject({ code: 'request.body_too_large' });
    expect((await read('')).body).toBeUndefined();
  });

  it('refuses a declared length over the limit before reading', async () => {
    const req = incoming(['Content-Length', '9'], null);
    await expect(readNode(fromNodeRequest(req, { path: '/' }), 8)).rejects.toMatchObject({ code: 'request.body_too_large' });
  });

  it('takes a consumed body from the host: raw text before the parsed value, parsed values measured', async () => {
    const form = ['Content-Type', 'application/x-www-form-urlencoded'];
    const host = (hostBody: { body?: unknown; rawBody?: unknown }) => readNode(fromNodeRequest(consumed(incoming(form, null)), { path: '/', hostBody }), 16);
    expect(text((await host({ body: { a: '1' }, rawBody: 'a=1' })).body)).toEqual({ bytes: 'a=1' });
    expect(text((await host({ body: Buffer.from('b=2') })).body)).toEqual({ bytes: 'b=2' });
    expect((await host({ body: { a: '1' } })).body).toEqual({ kind: 'parsed', value: { a: '1' } });
    expect((await host({})).body).toBeUndefined();
    await expect(host({ body: { a: 'x'.repeat(32) } })).rejects.toMatchObject({ code: 'request.body_too_large' });
    await expect(host({ rawBody: 'x'.repeat(32) })).rejects.toMatchObject({ code: 'request.body_too_large' });
  });

  it('reads a Content-Length body with listeners, and fails like a stream that closed early when the client goes away before or during it', async () => {
    const declared = (length: number) => Object.assign(incoming(['Content-Length', String(length)], null), { httpVersionMajor: 1, complete: false });
    const whole = declared(8);
    const reading = readNode(fromNodeRequest(whole, { path: '/' }), 8);
    (whole as unknown as PassThrough).write('1234');
    (whole as unknown as PassThrough).end('5678');
    expect(text((await reading).body)).toEqual({ bytes: '12345678' });
    expect(whole.listenerCount('data') + whole.listenerCount('close') + whole.listenerCount('error')).toBe(0);

    const cut = declared(8);
    const bridged = fromNodeRequest(cut, { path: '/' });
    const interrupted = readNode(bridged, 8);
    (cut as unknown as PassThrough).write('1234');
    cut.destroy();
    const error = await interrupted.then(() => undefined, (e: unknown) => e);
    expect(error).toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
    expect(bridged.clientWentAway(error)).toBe(true);

    const gone = declared(8);
    gone.destroy();
    await expect(readNode(fromNodeRequest(gone, { path: '/' }), 8)).rejects.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });

    const failing = declared(8);
    const failed = readNode(fromNodeRequest(failing, { path: '/' }), 8);
    await new Promise(setImmediate); // reading has begun: the listeners are attached
    failing.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    await expect(failed).rejects.toMatchObject({ code: 'ECONNRESET' });

    const over = declared(8);
    const tooMuch = readNode(fromNodeRequest(over, { path: '/' }), 8);
    (over as unknown as PassThrough).end('123456789');
    await expect(tooMuch).rejects.toMatchObject({ code: 'request.body_too_large' });
  });

  it('takes a complete body that arrived with its headers in one read, without listeners, and node still ends the stream', async () => {
    const req = Object.assign(incoming(['Content-Length', '8'], '12345678'), { httpVersionMajor: 1 });
    const on = vi.spyOn(req, 'on');
    const ended = new Promise((resolve) => req.once('end', resolve));
    on.mockClear();
    expect(text((await readNode(fromNodeRequest(req, { path: '/' }), 8)).body)).toEqual({ bytes: '12345678' });
    expect(on.mock.calls.map(([event]) => event)).not.toContain('data');
    await ended;

    // Part of it already taken by someone else, or not yet complete: the listener path, which waits for the rest.
    const partial = Object.assign(incoming(['Content-Length', '8'], null), { httpVersionMajor: 1, complete: false });
    const reading = readNode(fromNodeRequest(partial, { path: '/' }), 8);
    (partial as unknown as PassThrough).write('1234');
    await new Promise(setImmediate);
    (partial as unknown as PassThrough).end('5678');
    expect(text((await reading).body)).toEqual({ bytes: '12345678' });
  });

  it('over real node:http, keep-alive requests with small bodies each get their own body, each taken in one read', async () => {
    const seen: string[] = [];
    let listened = 0;
    const server = createServer((req, res) => {
      const on = req.on.bind(req);
      req.on = ((event: string, listener: (...args: unknown[]) => void) => {
        if (event === 'data') listened++;
        return on(event, listener);
      }) as typeof req.on;
      void readNode(fromNodeRequest(req, { path: '/' }), 1024).then((core) => {
          seen.push(core.body?.kind === 'bytes' ? Buffer.from(core.body.bytes).toString() : '');
          res.end('ok');
        });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (const body of ['{"a":1}', 'x'.repeat(300), '{"b":2}']) {
        await new Promise<void>((resolve, reject) => {
          const req = request({ host: '127.0.0.1', port, method: 'POST', agent, headers: { 'content-length': Buffer.byteLength(body) } }, (res) => res.resume().on('end', resolve));
          req.on('error', reject).end(body);
        });
      }
    } finally {
      agent.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
    expect(seen).toEqual(['{"a":1}', 'x'.repeat(300), '{"b":2}']);
    expect(listened).toBe(0); // the bodies came with their headers: no request took the listener path
  });

  it('gives the bytes sent when the host set an encoding, and reads a stream the host paused', async () => {
    const encoded = Object.assign(incoming(['Content-Length', '4'], null), { httpVersionMajor: 1 });
    encoded.setEncoding('hex');
    const reading = readNode(fromNodeRequest(encoded, { path: '/' }), 4);
    await new Promise(setImmediate);
    (encoded as unknown as PassThrough).end(Buffer.from([0xc3, 0xa9, 0x41, 0x42]));
    const body = (await reading).body;
    expect(body?.kind === 'bytes' ? [...body.bytes] : body).toEqual([0xc3, 0xa9, 0x41, 0x42]);

    const paused = Object.assign(incoming(['Content-Length', '8'], null), { httpVersionMajor: 1 });
    paused.pause();
    const pending = readNode(fromNodeRequest(paused, { path: '/' }), 8);
    await new Promise(setImmediate);
    (paused as unknown as PassThrough).write('1234');
    await new Promise(setImmediate);
    (paused as unknown as PassThrough).end('5678');
    expect(text((await pending).body)).toEqual({ bytes: '12345678' });
  });
});

describe('clientWentAway', () => {
  const req = (state: { destroyed?: boolean; complete?: boolean } = {}) => ({ destroyed: false, complete: true, ...state });
  it('tells a client that hung up from a server fault', () => {
    expect(clientWentAway(req({ destroyed: true, complete: false }), new Error('x'))).toBe(true);
    expect(clientWentAway(req(), Object.assign(new Error('reset'), { code: 'ECONNRESET' }))).toBe(true);
    expect(clientWentAway(req(), new Error('aborted'))).toBe(true);
    expect(clientWentAway(req(), new TypeError('a bug'))).toBe(false);
  });
});

describe('writeNodeResponse', () => {
  /** Raw bytes of the answer to one request on a fresh connection, with the Date line taken out. */
  async function answerBytes(write: (res: ServerResponse) => void, method = 'GET'): Promise<string> {
    const server = createServer((_req, res) => write(res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      return await new Promise<string>((resolve, reject) => {
        let received = '';
        const socket = connect(port, '127.0.0.1', () => socket.end(`${method} / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
        socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk)).on('error', reject);
        socket.on('close', () => resolve(received.replace(/\r\nDate: [^\r]+/, '')));
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }

  const answer: CoreResponse = {
    status: 404,
    headers: [['content-type', 'application/json; charset=utf-8'], ['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2'], ['vary', 'Accept']],
    body: '{"é":1}',
  };

  it('writes a body answer as node headers a host can still read once it is sent (loggers, on-headers hooks): repeats stay separate lines, the length counts UTF-8 bytes', async () => {
    let seenAfter: Record<string, unknown> = {};
    const bytes = await answerBytes((res) => {
      res.once('finish', () => (seenAfter = { ...res.getHeaders() }));
      writeNodeResponse(res, answer);
    });
    expect(bytes).toBe(
      'HTTP/1.1 404 Not Found\r\ncontent-type: application/json; charset=utf-8\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nvary: Accept\r\n' +
        'Content-Length: 8\r\nConnection: close\r\n\r\n{"\u00c3\u00a9":1}',
    );
    // A single writeHead(status, headers) would send the same bytes and leave these empty.
    expect(seenAfter).toEqual({ 'content-type': 'application/json; charset=utf-8', 'set-cookie': ['a=1', 'b=2'], vary: 'Accept', 'content-length': 8 });
  });

  it('after headers the host set: those stay first, ours follow, and Vary is appended to the host\'s', async () => {
    const bytes = await answerBytes((res) => {
      res.setHeader('X-Host', 'kept');
      res.setHeader('Vary', 'Origin');
      writeNodeResponse(res, answer);
    });
    expect(bytes).toBe(
      'HTTP/1.1 404 Not Found\r\nX-Host: kept\r\nvary: Origin, Accept\r\ncontent-type: application/json; charset=utf-8\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n' +
        'Content-Length: 8\r\nConnection: close\r\n\r\n{"\u00c3\u00a9":1}',
    );
  });

  it('in one head: the same bytes in one writeHead call, the headers not stored on the response', async () => {
    const single: CoreResponse = { status: 404, headers: [['content-type', 'application/json; charset=utf-8'], ['cache-control', 'no-store'], ['vary', 'Accept']], body: '{"é":1}' };
    let seenAfter: Record<string, unknown> | undefined;
    const oneHead = await answerBytes((res) => {
      res.once('finish', () => (seenAfter = { ...res.getHeaders() }));
      writeNodeResponseInOneHead(res, single);
    });
    expect(oneHead).toBe(await answerBytes((res) => writeNodeResponse(res, single)));
    expect(oneHead).toContain('\r\nContent-Length: 8\r\n');
    expect(seenAfter).toEqual({});
    const bodiless: CoreResponse = { status: 202, headers: [['cache-control', 'no-store']] };
    for (const method of ['HEAD', 'GET']) {
      expect(await answerBytes((res) => writeNodeResponseInOneHead(res, single), method)).toBe(await answerBytes((res) => writeNodeResponse(res, single), method));
      // Node frames an empty answer at end(): it leaves it to the stored path.
      expect(await answerBytes((res) => writeNodeResponseInOneHead(res, bodiless), method)).toBe(await answerBytes((res) => writeNodeResponse(res, bodiless), method));
      expect(await answerBytes((res) => writeNodeResponseInOneHead(res, { status: 204, headers: [] }), method)).toBe('HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n');
    }
  });

  it('in one head, with a repeated name (Set-Cookie) or a Content-Length of its own: the stored path, the same bytes', async () => {
    const withLength: CoreResponse = { status: 200, headers: [['content-length', '8']], body: '{"é":1}' };
    for (const shape of [answer, withLength]) {
      let seenAfter: Record<string, unknown> = {};
      const bytes = await answerBytes((res) => {
        res.once('finish', () => (seenAfter = { ...res.getHeaders() }));
        writeNodeResponseInOneHead(res, shape);
      });
      expect(bytes).toBe(await answerBytes((res) => writeNodeResponse(res, shape)));
      expect(Object.keys(seenAfter)).not.toEqual([]);
    }
  });

  it('in one head, on a response whose header store exists but is empty (a header set, then removed) still answers, with the same bytes', async () => {
    const bytes = await answerBytes((res) => {
      res.setHeader('x-a', '1');
      res.removeHeader('x-a');
      writeNodeResponseInOneHead(res, answer);
    });
    expect(bytes).toBe(await answerBytes((res) => writeNodeResponse(res, answer)));
    const single: CoreResponse = { status: 413, headers: [['content-type', 'application/json'], ['connection', 'close']], body: '{}' };
    const odd = await answerBytes((res) => {
      res.setHeader('x-a', '1');
      res.removeHeader('x-a');
      writeNodeResponseInOneHead(res, single);
    });
    expect(odd).toBe(await answerBytes((res) => writeNodeResponse(res, single)));
  });

  it('in one head, after headers the host set: the stored path, so theirs are kept and Vary is appended', async () => {
    const bytes = await answerBytes((res) => {
      res.setHeader('Vary', 'Origin');
      writeNodeResponseInOneHead(res, answer);
    });
    expect(bytes).toContain('\r\nvary: Origin, Accept\r\n');
    expect(bytes).toMatch(/^HTTP\/1\.1 404 Not Found\r\nvary: Origin, Accept\r\ncontent-type: application\/json; charset=utf-8\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nContent-Length: 8\r\n/);
  });

  it('answers HEAD with the length and no body, and a bodiless answer with Content-Length: 0', async () => {
    expect(await answerBytes((res) => writeNodeResponse(res, answer), 'HEAD')).toMatch(/Content-Length: 8\r\nConnection: close\r\n\r\n$/);
    expect(await answerBytes((res) => writeNodeResponse(res, { status: 202, headers: [['cache-control', 'no-store']] }))).toBe(
      'HTTP/1.1 202 Accepted\r\ncache-control: no-store\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
    );
  });
});
