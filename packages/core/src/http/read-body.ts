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
  const chunks: Uint8Array[] = [];
  let total = 0;
  const iterable: AsyncIterable<Uint8Array | string> =
    typeof (source as ReadableStream).getReader === 'function' ? streamToIterable(source as ReadableStream<Uint8Array>) : (source as AsyncIterable<Uint8Array | string>);
  for await (const chunk of iterable) {
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
    total += bytes.byteLength;
    if (total > limit) throw new AuthorizerError('request.body_too_large');
    chunks.push(bytes);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

async function* streamToIterable(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    // Stop the upload when we bail out early on the limit.
    await reader.cancel().catch(() => undefined);
  }
}
