/** Why a bounded fetch failed; the caller turns it into a result error (never into a throw). */
export class BoundedFetchError extends Error {
  override readonly name = 'BoundedFetchError';
  constructor(
    readonly reason: 'timeout' | 'too_large' | 'network' | 'http_status',
    message: string,
  ) {
    super(message);
  }
}

export interface BoundedFetchOptions {
  accept: string;
  timeoutMs: number;
  maxBytes: number;
  /** The caller's signal: when it aborts, its reason is rethrown (verification stops). */
  signal: AbortSignal;
  /** 'error' never follows a redirect (did:web); status lists follow them as TSL recommends. */
  redirect?: 'follow' | 'error';
}

/**
 * GET with a timeout and a body size cap (checked on Content-Length and while streaming), so a
 * slow or huge remote document can neither stall nor exhaust the verifier.
 */
export async function boundedFetch(fetchFn: typeof fetch, url: string, options: BoundedFetchOptions): Promise<{ body: Uint8Array; contentType: string | null }> {
  options.signal.throwIfAborted();
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = AbortSignal.any([options.signal, timeout]);
  try {
    const response = await fetchFn(url, { method: 'GET', headers: { accept: options.accept }, signal, redirect: options.redirect ?? 'follow' });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new BoundedFetchError('http_status', `The server answered HTTP ${response.status}`);
    }
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > options.maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw new BoundedFetchError('too_large', `The response is larger than ${options.maxBytes} bytes`);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (response.body) {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > options.maxBytes) {
          await reader.cancel().catch(() => undefined);
          throw new BoundedFetchError('too_large', `The response is larger than ${options.maxBytes} bytes`);
        }
        chunks.push(value);
      }
    }
    return { body: new Uint8Array(Buffer.concat(chunks)), contentType: response.headers.get('content-type') };
  } catch (error) {
    if (options.signal.aborted) throw options.signal.reason;
    if (error instanceof BoundedFetchError) throw error;
    if (timeout.aborted) throw new BoundedFetchError('timeout', `No response within ${options.timeoutMs} ms`);
    throw new BoundedFetchError('network', 'The request failed');
  }
}
