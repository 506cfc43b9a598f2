// A browser stand-in for the demo's routes over node:http: one cookie jar (the relying party's
// session), exactly the headers given (Host and Origin included, which fetch would set itself),
// and an optional source address on the loopback network (127.0.0.2, …) to play another client.
import { type IncomingMessage, request } from 'node:http';

export interface DemoAnswer<T = Record<string, any>> {
  status: number;
  headers: IncomingMessage['headers'];
  body: T;
}

/** An event stream as it arrives: `text()` so far; `ended` settles when the server ends or drops it. */
export interface DemoStream {
  status: number;
  text(): string;
  ended: Promise<void>;
  close(): void;
}

export interface DemoClientOptions {
  /** Source address of every request (default: the system's choice, 127.0.0.1). */
  localAddress?: string;
}

export function demoClient(origin: string, { localAddress }: DemoClientOptions = {}) {
  let cookie = '';
  /** GET without a body; POST with one (JSON unless `headers` says otherwise). */
  async function call<T = Record<string, any>>(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<DemoAnswer<T>> {
    const url = new URL(path, origin);
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const all: Record<string, string> = {
      host: url.host,
      ...(cookie ? { cookie } : {}),
      ...(text === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }),
      ...headers,
    };
    return new Promise((resolve, reject) => {
      const req = request(url, { method: text === undefined ? 'GET' : 'POST', headers: all, ...(localAddress ? { localAddress } : {}) }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const set = res.headers['set-cookie']?.[0];
          if (set) cookie = set.split(';')[0]!;
          const raw = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: (raw.startsWith('{') ? JSON.parse(raw) : raw) as T });
        });
      });
      req.on('error', reject);
      req.end(text);
    });
  }
  /** Opens `path` as an event stream; resolves once the status line arrived, with the body still open. */
  function stream(path: string): Promise<DemoStream> {
    const url = new URL(path, origin);
    return new Promise((resolve, reject) => {
      const req = request(url, { headers: { host: url.host, cookie, accept: 'text/event-stream' }, ...(localAddress ? { localAddress } : {}) }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => void (text += chunk));
        const ended = new Promise<void>((done) => res.once('close', () => done()));
        resolve({ status: res.statusCode ?? 0, text: () => text, ended, close: () => req.destroy() });
      });
      req.on('error', reject);
      req.end();
    });
  }
  return Object.assign(call, { stream, cookie: () => cookie, setCookie: (value: string) => void (cookie = value) });
}

export type DemoClient = ReturnType<typeof demoClient>;
