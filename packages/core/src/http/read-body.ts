import { AuthorizerError } from '../errors/authorizer-error.js';

/** Default cap on request bodies: mdoc and multi-credential vp_tokens exceed body-parser's 100 kB. */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

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
  if (typeof (source as ReadableStream).getReader === 'function') {
    // Read the web stream directly: an async generator around the reader costs more than the
    // one chunk a typical body arrives in.
    const reader = (source as ReadableStream<Uint8Array>).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        collected.add(value);
      }
    } finally {
      // Stop the upload when we bail out early on the limit (a no-op once it ended).
      await reader.cancel().catch(() => undefined);
    }
  } else {
    for await (const chunk of source as AsyncIterable<Uint8Array | string>) collected.add(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
  }
  return collected.bytes();
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
