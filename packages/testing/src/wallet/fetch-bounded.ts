/** How long the wallet waits for a verifier URL, and how much of its answer it reads. */
export interface FetchBounds {
  /** Give up after this long (ms), headers and body together. Default 10 s. */
  timeoutMs?: number;
  /** The largest body read (bytes); beyond it the body is cancelled. Default 1 MiB. */
  maxBodyBytes?: number;
}

export const DEFAULT_FETCH_TIMEOUT_MS = 10_000;
export const DEFAULT_FETCH_MAX_BODY_BYTES = 1024 * 1024;

/**
 * `fetch` of a URL the wallet was handed (its request_uri, its response_uri), bounded: one timeout
 * over the headers and the body, and a body cap beyond which the stream is cancelled (closing the
 * connection). `name` says which URL in the errors. Redirects are never followed.
 */
export async function fetchBounded(name: string, url: string, init: RequestInit, bounds: FetchBounds = {}): Promise<{ response: Response; body: string }> {
  const timeoutMs = bounds.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const maxBytes = bounds.maxBodyBytes ?? DEFAULT_FETCH_MAX_BODY_BYTES;
  // The one signal bounds the body's read too: fetch aborts the stream it is reading.
  const signal = AbortSignal.timeout(timeoutMs);
  const late = () => new Error(`test wallet: ${name} did not answer within ${timeoutMs} ms`);
  const response = await fetch(url, { ...init, redirect: 'manual', signal }).catch((error: unknown) => {
    throw signal.aborted ? late() : error;
  });
  if (response.body === null) return { response, body: '' };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { response, body: text + decoder.decode() };
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        throw new Error(`test wallet: ${name} answered a body over ${maxBytes} bytes; not read further`);
      }
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    if (signal.aborted) throw late();
    throw error;
  }
}
