/**
 * A validator/verifier service on 127.0.0.1 that misbehaves on purpose (docs/service-wire-format.md
 * describes what a well-behaved one answers). Every connection it accepts is tracked, so close()
 * can destroy the ones a fault left hanging and the suite ends with no open sockets.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

export type Fault =
  /** Reads the request, never answers. */
  | { kind: 'hang' }
  /** Sends 200 headers (chunked), then destroys the socket. */
  | { kind: 'reset-after-headers' }
  /** Sends 200 headers and half of a valid JSON body, then destroys the socket. */
  | { kind: 'reset-mid-body' }
  /** Destroys the socket as soon as the request arrived: no status line at all. */
  | { kind: 'reset-before-response' }
  /** Answers `status` with a small problem-details body (and Retry-After when given). */
  | { kind: 'status'; status: number; retryAfter?: string }
  /** 200 with a body that is not JSON. */
  | { kind: 'not-json' }
  /** 200 with JSON of the wrong shape. */
  | { kind: 'wrong-shape' }
  /** 200 with `bytes` of JSON (a valid answer padded with whitespace-free filler); chunked, no content-length. */
  | { kind: 'huge'; bytes: number; declareLength: boolean }
  /** A valid 200 answer, after `delayMs`. */
  | { kind: 'slow-ok'; delayMs: number }
  /** 200 headers, then one byte of a valid body every `everyMs`: always "making progress", never done in time. */
  | { kind: 'trickle'; everyMs: number }
  /** 200 with a small gzip body that inflates to `inflatedBytes` (content-encoding: gzip). */
  | { kind: 'gzip-bomb'; inflatedBytes: number }
  /** Exactly this status, headers and body. */
  | { kind: 'raw'; status: number; headers?: Record<string, string>; body: string }
  /** A valid 200 answer, sent only when release() is called. */
  | { kind: 'held' }
  /** A valid 200 answer at once. */
  | { kind: 'ok' };

export interface FaultService {
  url: string;
  /** Requests received (every attempt of every call). */
  readonly requests: number;
  setFault(fault: Fault): void;
  /** Answer every request held by the `held` fault (valid 200s); returns how many were released. */
  release(): number;
  /** Sockets currently open on the server side (idle keep-alive ones included). */
  openSockets(): number;
  /** Requests whose response is neither finished nor cut off by the connection closing. */
  inFlight(): number;
  close(): Promise<void>;
}

/** A valid answer: one passing result per presentation path of the request (the authorizer requires coverage). */
export function validAnswer(body: unknown, service: 'validator' | 'verifier'): { results: unknown[] } {
  const presentations = (body as { presentations?: { path?: unknown }[] } | null)?.presentations ?? [];
  const paths = presentations.map((p) => p.path).filter(Array.isArray);
  return { results: (paths.length ? paths : [[]]).map((path) => ({ path, policy: service === 'validator' ? 'validate' : 'verify', service, data: {} })) };
}

const bombs = new Map<number, Buffer>();
/** Compressed once per size (compressing tens of MB blocks the event loop this process shares with the authorizer). */
export function gzipBomb(inflatedBytes: number): Buffer {
  let bomb = bombs.get(inflatedBytes);
  if (!bomb) bombs.set(inflatedBytes, (bomb = gzipSync(Buffer.alloc(inflatedBytes, 0x20), { level: 9 })));
  return bomb;
}

export async function startFaultService(service: 'validator' | 'verifier', initial: Fault = { kind: 'ok' }): Promise<FaultService> {
  let fault = initial;
  let requests = 0;
  let inFlight = 0;
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const held: (() => void)[] = [];
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests++;
    inFlight++;
    res.once('close', () => inFlight--);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= 5 * 1024 * 1024) chunks.push(c);
    });
    req.on('end', () => {
      let body: unknown = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = null;
      }
      answer(fault, body, res);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  function answer(f: Fault, body: unknown, res: ServerResponse): void {
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      const text = JSON.stringify(value);
      res.writeHead(status, { 'content-type': status === 200 ? 'application/json' : 'application/problem+json', 'content-length': String(Buffer.byteLength(text)), ...headers });
      res.end(text);
    };
    switch (f.kind) {
      case 'hang':
        return;
      case 'reset-before-response':
        res.socket?.destroy();
        return;
      case 'reset-after-headers':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.flushHeaders();
        later(20, () => res.socket?.destroy());
        return;
      case 'reset-mid-body': {
        const text = JSON.stringify(validAnswer(body, service));
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
        res.write(text.slice(0, Math.floor(text.length / 2)));
        later(20, () => res.socket?.destroy());
        return;
      }
      case 'status':
        return json(f.status, { type: 'https://service.example/errors/down', title: 'down', status: f.status }, f.retryAfter ? { 'retry-after': f.retryAfter } : {});
      case 'not-json':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('<html>definitely not json</html>');
        return;
      case 'wrong-shape':
        return json(200, { result: 'ok', results: 'all good' });
      case 'huge': {
        // A valid answer whose data member carries a long string: only its size is wrong.
        const padded = validAnswer(body, service);
        (padded.results[0] as { data: Record<string, string> }).data = { pad: '@@PAD@@' };
        const [prefix, suffix] = JSON.stringify(padded).split('@@PAD@@') as [string, string];
        const padBytes = Math.max(0, f.bytes - Buffer.byteLength(prefix) - Buffer.byteLength(suffix));
        res.writeHead(200, { 'content-type': 'application/json', ...(f.declareLength ? { 'content-length': String(Buffer.byteLength(prefix) + padBytes + Buffer.byteLength(suffix)) } : {}) });
        res.write(prefix);
        const piece = 'x'.repeat(64 * 1024);
        let left = padBytes;
        const pump = () => {
          while (left > 0) {
            const n = Math.min(left, piece.length);
            left -= n;
            if (!res.write(n === piece.length ? piece : piece.slice(0, n))) {
              res.once('drain', pump);
              return;
            }
          }
          res.end(suffix);
        };
        res.on('error', () => undefined);
        pump();
        return;
      }
      case 'slow-ok':
        later(f.delayMs, () => {
          if (!res.destroyed) json(200, validAnswer(body, service));
        });
        return;
      case 'trickle': {
        const text = JSON.stringify(validAnswer(body, service));
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
        let i = 0;
        const step = () => {
          if (res.destroyed || i >= text.length) return;
          res.write(text[i++]!);
          later(f.everyMs, step);
        };
        step();
        return;
      }
      case 'gzip-bomb': {
        const bomb = gzipBomb(f.inflatedBytes);
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(bomb.length) });
        res.end(bomb);
        return;
      }
      case 'raw':
        res.writeHead(f.status, { 'content-length': String(Buffer.byteLength(f.body)), ...f.headers });
        res.end(f.body);
        return;
      case 'held':
        held.push(() => {
          if (!res.destroyed) json(200, validAnswer(body, service));
        });
        return;
      case 'ok':
        return json(200, validAnswer(body, service));
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    setFault: (f) => {
      fault = f;
    },
    release: () => {
      const waiting = held.splice(0);
      for (const send of waiting) send();
      return waiting.length;
    },
    openSockets: () => sockets.size,
    inFlight: () => inFlight,
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      held.length = 0;
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
