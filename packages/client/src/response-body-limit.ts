import type { Middleware } from 'openapi-fetch';
import { ResponseLimitError } from './authorizer-api-error.js';

/**
 * An openapi-fetch middleware that reads every answer body but an event stream (`parseAs:
 * 'stream'`, bounded per event instead) into memory through a counter: beyond `maxBytes` it
 * cancels the body (closing the connection) and throws, before openapi-fetch would buffer and
 * parse an unbounded body.
 */
export function responseBodyLimit(maxBytes: number): Middleware {
  return {
    async onResponse({ response, options }) {
      if (options.parseAs === 'stream' || response.body === null) return undefined;
      const bytes = await readAtMost(response, maxBytes);
      const limited = new Response(response.status === 204 || response.status === 205 || response.status === 304 ? null : bytes, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
      // Error messages name the URL that answered; a constructed Response has none.
      Object.defineProperty(limited, 'url', { value: response.url });
      return limited;
    },
  };
}

// Core's post-to-service reads bodies under a limit the same way; the client keeps its own copy
// because it must run without @vp-authorizer/core (a browser or another backend installs it alone).
async function readAtMost(response: Response, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = () =>
    new ResponseLimitError(response.status, 'maxResponseBytes', maxBytes, `${response.url || 'the authorizer'} answered ${response.status} with a body over maxResponseBytes (${maxBytes} bytes); it was not read further`);
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  const reader = response.body!.getReader();
  if (declared > maxBytes) {
    await reader.cancel().catch(() => {});
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
