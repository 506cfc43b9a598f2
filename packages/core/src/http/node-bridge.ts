import { Readable } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { appendVary } from '../cors/append-vary.js';
import type { CoreResponse, CoreResponseStream, RequestHeaders } from '../wire/core-request.js';
import type { BridgedCoreRequest } from './read-body.js';
import { mountPathOf, type BridgedRequest } from './serve.js';

/** What a host body parser left once it consumed the stream (Express `req.body`; Koa `ctx.request.body` and `rawBody`). */
export interface HostBody {
  body?: unknown;
  /** The exact text the parser read, when it keeps it (@koa/bodyparser): preferred over `body`. */
  rawBody?: unknown;
}

export interface NodeMount {
  /** Path below the mount point, starting with `/`, without the query. */
  path: string;
  /** Looked at only when the stream was already consumed by a host body parser. */
  hostBody?: HostBody;
  /** The URL as sent, when the host rewrote `req.url` (Koa under koa-mount: `ctx.originalUrl`); for the mount-path check. */
  originalUrl?: string;
}

/**
 * A node:http request as `serve()` takes it: headers, query and body are read only when the core
 * asks. Only I/O here: `readRequest` (read-body.ts) applies the body limit to what this delivers.
 */
export function fromNodeRequest(req: IncomingMessage, mount: NodeMount): BridgedRequest {
  const method = req.method ?? 'GET';
  return {
    method,
    path: mount.path,
    clientWentAway: (error) => clientWentAway(req, error),
    mountPath() {
      // Express and Koa keep the URL as sent in originalUrl; other hosts do not rewrite req.url.
      const url = mount.originalUrl ?? (req as { originalUrl?: unknown }).originalUrl;
      const full = typeof url === 'string' ? url : (req.url ?? '');
      const q = full.indexOf('?');
      return mountPathOf(q === -1 ? full : full.slice(0, q), mount.path);
    },
    async read() {
      const body = nodeBody(req, mount.hostBody);
      const url = req.url ?? '';
      const q = url.indexOf('?');
      return {
        method,
        path: mount.path,
        query: new URLSearchParams(q === -1 ? '' : url.slice(q + 1)),
        headers: new RawHeaders(req.rawHeaders),
        ...(body ? { body } : {}),
      };
    },
  };
}

/** `Headers.get` over node's rawHeaders (every line as sent, repeats joined in order), without building a Headers. */
class RawHeaders implements RequestHeaders {
  constructor(private readonly raw: string[]) {}

  get(name: string): string | null {
    const wanted = name.toLowerCase();
    let value: string | null = null;
    for (let i = 0; i + 1 < this.raw.length; i += 2) {
      const line = this.raw[i]!;
      if (line.length === wanted.length && line.toLowerCase() === wanted) value = value === null ? this.raw[i + 1]! : `${value}, ${this.raw[i + 1]!}`;
    }
    return value;
  }
}

function nodeBody(req: IncomingMessage, host: HostBody = {}): BridgedCoreRequest['body'] {
  // "Was the stream consumed" decides, not "is a body set": Express 4's body-parser and Koa's set
  // {} even for types they skip. Unread: the stream, read when the core asks.
  if (!req.readableEnded) {
    const framing = bodyFraming(req);
    if (framing === 'none') return undefined;
    return { kind: 'stream', pump: framing === 'declared' ? (take) => pumpDeclaredBody(req, take) : (take) => pumpStream(req, take) };
  }
  const { body, rawBody } = host;
  // Raw text is preferred over a parsed object: @koa/bodyparser's rawBody, express.raw()/text() output.
  const raw = typeof rawBody === 'string' ? rawBody : typeof body === 'string' || body instanceof Uint8Array ? body : undefined;
  if (raw !== undefined) return { kind: 'bytes', bytes: typeof raw === 'string' ? Buffer.from(raw) : raw };
  if (body === undefined) return undefined;
  return { kind: 'parsed', value: body }; // the core re-reads it per Content-Type, never re-serialised
}

/** A chunked (or HTTP/2) body through the stream's iterator; a host encoding's strings back to UTF-8 bytes. */
async function pumpStream(req: IncomingMessage, take: (chunk: Uint8Array) => void): Promise<void> {
  for await (const chunk of req as AsyncIterable<Uint8Array | string>) take(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
}

/**
 * How an HTTP/1.x request delimits its body (RFC 9112 §6.3): neither Content-Length nor
 * Transfer-Encoding means no body at all, so a GET is answered without touching the stream.
 * HTTP/2 frames bodies without either header: always read.
 */
function bodyFraming(req: IncomingMessage): 'none' | 'declared' | 'stream' {
  if (req.httpVersionMajor !== 1 || req.headers['transfer-encoding'] !== undefined) return 'stream';
  return req.headers['content-length'] === undefined ? 'none' : 'declared';
}

/**
 * A Content-Length body with plain listeners (an async iterator, or stream.finished(), per request
 * costs more than the read itself). Fails like the iterator did: the stream's error, or a
 * premature close (also when the request was already destroyed before the read began), or what
 * `take` threw (the limit), after which nothing more is taken.
 */
async function pumpDeclaredBody(req: IncomingMessage, take: (chunk: Uint8Array) => void): Promise<void> {
  // One microtask later, node has pushed the body of the packet that carried the headers.
  await undefined;
  const buffered = completeBufferedBody(req);
  if (buffered) return take(buffered);
  return new Promise((resolve, reject) => {
    if (req.destroyed) return void reject(prematureClose());
    // A host that set an encoding gets strings: back to the bytes sent.
    const encoding = req.readableEncoding ?? 'utf8';
    const onData = (chunk: Buffer | string) => {
      try {
        take(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
      } catch (error) {
        done(error);
      }
    };
    const onEnd = () => done();
    const onClose = () => done(req.readableEnded ? undefined : prematureClose());
    function done(error?: unknown) {
      req.off('data', onData).off('end', onEnd).off('error', done).off('close', onClose);
      if (error) reject(error);
      else resolve();
    }
    req.on('data', onData).on('end', onEnd).on('error', done).on('close', onClose);
    // A data listener does not restart a stream the host paused explicitly.
    if (req.readableFlowing === false) req.resume();
  });
}

/**
 * A small body usually arrives with its headers: by the time a handler reads, node has pushed it
 * into the stream's buffer. When the buffer holds exactly the declared length (node never pushes
 * more than Content-Length into one message), it is taken in one synchronous `read()` (node still
 * emits `end` as usual), with no listeners or ticks. Anything else takes the listener path.
 */
function completeBufferedBody(req: IncomingMessage): Buffer | undefined {
  if (req.destroyed || req.readableFlowing === true || req.readableEncoding !== null || req.readableObjectMode) return undefined;
  const declared = Number(req.headers['content-length']);
  if (!(declared > 0) || req.readableLength !== declared) return undefined;
  const chunk: unknown = req.read();
  if (Buffer.isBuffer(chunk) && chunk.byteLength === declared) return chunk;
  if (chunk !== null) req.unshift(chunk as Buffer); // not what a byte stream gives: leave it to the listeners
  return undefined;
}

/** What stream.finished() reports for a stream closed before its end (clientWentAway knows the code). */
function prematureClose(): Error {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

/**
 * Status and headers of a core answer onto a node:http response: several Set-Cookie stay several
 * lines, Vary is appended to what the host set (a CORS `Vary: Origin`), every other value is set
 * exactly as given (no Content-Type rewriting).
 */
export function writeNodeHead(res: ServerResponse, response: CoreResponse): void {
  res.statusCode = response.status;
  for (const [name, value] of response.headers) {
    const lower = name.toLowerCase();
    if (lower === 'set-cookie') res.appendHeader(name, value);
    else if (lower === 'vary') res.setHeader(name, appendVary(res.getHeader(name), value));
    else res.setHeader(name, value);
  }
}

/**
 * Write a core answer and end the response. No ETag, so no 304 for If-None-Match; a HEAD answer
 * keeps the GET's Content-Length and node sends no body.
 */
export function writeNodeResponse(res: ServerResponse, response: CoreResponse): void {
  writeNodeHead(res, response);
  if (response.stream) return void writeNodeStream(res, response.stream);
  if (!response.body) return void res.end();
  res.setHeader('Content-Length', Buffer.byteLength(response.body));
  res.end(response.body); // node encodes the string once, as UTF-8
}

/**
 * writeNodeResponse for a host that keeps its own record of the answer's headers (Fastify's
 * reply): a body answer's head goes out in one `writeHead` call instead of being stored on `res`
 * header by header, when nothing is stored there yet (else the stored path keeps what the host
 * set, a CORS `Vary`). The same bytes go out; an answer that repeats a header name (Set-Cookie) or
 * sets its own Content-Length takes the stored path. `res.getHeader()` does not see the answer's
 * headers. It pays for itself on Fastify's routes (bench/README.md); not public API (`/internal`).
 */
export function writeNodeResponseInOneHead(res: ServerResponse, response: CoreResponse): void {
  // A body answer only: for an empty one node decides the framing (Content-Length: 0, or none for
  // a 204) at end(), which a head written first would pre-empt.
  if (response.body && !response.stream && res.getHeaderNames().length === 0) {
    const head = headRecord(response.headers);
    if (head) {
      head['Content-Length'] = String(Buffer.byteLength(response.body));
      res.writeHead(response.status, head).end(response.body);
      return;
    }
  }
  writeNodeResponse(res, response);
}

/**
 * The headers as one record for writeHead, names as given, or undefined when a name repeats (in
 * any case) or is one the prototype has: those keep the stored path. A record, not a list, so a
 * response whose header store node has already created (a header set, then removed) takes them
 * through setHeader one by one, and HTTP/2 responses take them too.
 */
function headRecord(pairs: [string, string][]): Record<string, string> | undefined {
  const record: Record<string, string> = {};
  const seen: Record<string, true> = {};
  for (const [name, value] of pairs) {
    const lower = name.toLowerCase();
    if (seen[lower] !== undefined || record[name] !== undefined || lower === 'content-length') return undefined;
    seen[lower] = true;
    record[name] = value;
  }
  return record;
}

/**
 * Write a streamed body chunk by chunk (headers go out at once), waiting for `drain` so a slow
 * reader holds at most one chunk here; the client going away cancels the stream. Resolves when done.
 */
export async function writeNodeStream(res: ServerResponse, stream: CoreResponseStream): Promise<void> {
  const cancel = () => stream.cancel();
  res.once('close', cancel);
  try {
    res.flushHeaders();
    for await (const chunk of stream) {
      if (res.destroyed) break;
      if (!res.write(chunk)) await drainedOrClosed(res);
    }
  } catch {
    // A failing producer ends the stream; the status line was already sent, nothing else to answer.
  } finally {
    res.off('close', cancel);
    stream.cancel();
    if (!res.destroyed) res.end();
  }
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}

/**
 * A streamed body as a Node Readable, for hosts that pipe bodies themselves (Koa): destroying it
 * (the host does when the response closes) ends the iteration and cancels the producer.
 */
export function toNodeReadable(stream: CoreResponseStream): Readable {
  const readable = Readable.from(stream, { objectMode: false });
  readable.once('close', () => stream.cancel());
  return readable;
}

/** The parts of a node:http IncomingMessage `clientWentAway` reads. */
interface NodeRequestState {
  destroyed: boolean;
  complete: boolean;
}

const ABORT_CODES = new Set(['ECONNRESET', 'ERR_STREAM_PREMATURE_CLOSE', 'ECONNABORTED']);

/** The client went away mid-request (aborted upload, reset socket): not a server fault to report. */
export function clientWentAway(req: NodeRequestState, error: unknown): boolean {
  if (req.destroyed && !req.complete) return true;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (typeof code === 'string' && ABORT_CODES.has(code)) || message === 'aborted';
}
