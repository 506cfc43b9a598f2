import { AuthorizerError } from '../errors/authorizer-error.js';
import type { CoreRequest, CoreRequestBody } from '../wire/core-request.js';

/** Default cap on request bodies: mdoc and multi-credential vp_tokens exceed body-parser's 100 kB. */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * A body still on the wire: the bridge calls `take` with each chunk as it arrives and stops
 * reading (rejecting with that error) as soon as `take` throws. The bridge does the I/O; the
 * counting is `readRequest`'s.
 */
export interface StreamedBody {
  kind: 'stream';
  pump(take: (chunk: Uint8Array) => void): Promise<void>;
}

/**
 * A request as a bridge hands it over: the body is a stream not yet read, bytes or a value a host
 * parser already produced, or absent. `readRequest` turns it into the core's request.
 */
export interface BridgedCoreRequest extends Omit<CoreRequest, 'body'> {
  body?: CoreRequestBody | StreamedBody;
}

/**
 * The one owner of the body limit, for every body a bridge delivers: a declared Content-Length
 * over `limit` is refused before anything is read (also when a host parser, with a higher limit
 * of its own, already read it), a stream is counted while it is read and stopped at the first
 * byte past the limit, and a body a host consumed is measured once. `request.body_too_large`.
 */
export function readRequest(bridged: BridgedCoreRequest, limit: number): CoreRequest | Promise<CoreRequest> {
  const { method, path, query, headers, body } = bridged;
  if (Number(headers.get('content-length') ?? 0) > limit) throw new AuthorizerError('request.body_too_large');
  // Synchronous unless a stream is read: a GET takes no extra turn here.
  if (body === undefined) return { method, path, query, headers };
  let read: CoreRequestBody | undefined;
  if (body.kind === 'stream') {
    const collected = new Collected(limit);
    return body.pump((chunk) => collected.add(chunk)).then(() => {
      const bytes = nonEmpty(collected.bytes());
      return bytes ? { method, path, query, headers, body: bytes } : { method, path, query, headers };
    });
  } else if (body.kind === 'bytes') {
    if (body.bytes.byteLength > limit) throw new AuthorizerError('request.body_too_large');
    read = nonEmpty(body.bytes);
  } else {
    // express.json()/urlencoded() of a chunked upload: no declared length, only the parsed value.
    refuseParsedOverLimit(body.value, headers.get('content-type'), limit);
    read = body;
  }
  return read ? { method, path, query, headers, body: read } : { method, path, query, headers };
}

const nonEmpty = (bytes: Uint8Array): CoreRequestBody | undefined => (bytes.byteLength > 0 ? { kind: 'bytes', bytes } : undefined);

/**
 * Read a request body up to `limit` bytes. Stops reading (and throws `request.body_too_large`)
 * as soon as the limit is passed, so an oversized upload is never buffered whole.
 */
export async function readBodyWithLimit(
  source: AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array> | null | undefined,
  limit: number,
): Promise<Uint8Array> {
  if (source == null) return new Uint8Array(0);
  const collected = new Collected(limit);
  if (typeof (source as ReadableStream).getReader === 'function') await pumpWebStream(source as ReadableStream<Uint8Array>, (chunk) => collected.add(chunk));
  else for await (const chunk of source as AsyncIterable<Uint8Array | string>) collected.add(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
  return collected.bytes();
}

/**
 * Hand each chunk of a web stream to `take`, reading it directly (an async generator around the
 * reader costs more than the one chunk a typical body arrives in). A throwing `take` cancels the
 * upload and rejects with its error.
 */
export async function pumpWebStream(source: ReadableStream<Uint8Array>, take: (chunk: Uint8Array) => void): Promise<void> {
  const reader = source.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      take(value);
    }
  } finally {
    // Stop the upload when we bail out early on the limit (a no-op once it ended).
    await reader.cancel().catch(() => undefined);
  }
}

const encoder = new TextEncoder();

/** Chunks up to `limit` bytes in total: the one past it throws `request.body_too_large`. */
class Collected {
  private readonly chunks: Uint8Array[] = [];
  private total = 0;

  constructor(private readonly limit: number) {}

  add(bytes: Uint8Array): void {
    this.total += bytes.byteLength;
    if (this.total > this.limit) throw new AuthorizerError('request.body_too_large');
    this.chunks.push(bytes);
  }

  bytes(): Uint8Array {
    if (this.chunks.length === 1) return this.chunks[0]!;
    const out = new Uint8Array(this.total);
    let offset = 0;
    for (const c of this.chunks) {
      out.set(c, offset);
      offset += c.byteLength;
    }
    return out;
  }
}

/**
 * 413 when a body a host parser already consumed is over the limit. A chunked upload has no
 * Content-Length, so the parsed value is measured: forms as the sum of key and value lengths,
 * anything else as its JSON text. A value JSON cannot measure is refused.
 */
export function refuseParsedOverLimit(value: unknown, contentType: string | null | undefined, limit: number): void {
  if (parsedSize(value, (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase()) > limit) {
    throw new AuthorizerError('request.body_too_large');
  }
}

function parsedSize(value: unknown, mediaType: string): number {
  if (mediaType !== 'application/x-www-form-urlencoded' || value === null || typeof value !== 'object') return jsonSize(value);
  let size = 0;
  for (const [key, field] of Object.entries(value)) {
    for (const item of Array.isArray(field) ? (field as unknown[]) : [field]) {
      size += Buffer.byteLength(key) + (typeof item === 'string' ? Buffer.byteLength(item) : jsonSize(item));
    }
  }
  return size;
}

function jsonSize(value: unknown): number {
  try {
    const text = JSON.stringify(value) as string | undefined;
    return text === undefined ? 0 : Buffer.byteLength(text);
  } catch {
    return Number.POSITIVE_INFINITY; // cyclic or BigInt: not a body a parser produced from JSON or a form
  }
}
