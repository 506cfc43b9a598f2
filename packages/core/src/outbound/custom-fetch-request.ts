import { OutboundFetchError } from './outbound-fetch-error.js';
import type { OutboundResponse } from './outbound-response.js';

/**
 * One request through a caller-supplied fetch. Redirects are not followed ('manual': a 3xx or an
 * opaque redirect fails) and the body is bounded; the fetch does its own name resolution, so the
 * resolved-address check and pinning are the caller's responsibility on this path.
 */
export async function requestWithCustomFetch(
  fetchFn: typeof fetch,
  url: URL,
  options: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: Uint8Array; maxBytes: number; oversizedBody?: 'fail' | 'truncate'; signal: AbortSignal },
): Promise<OutboundResponse> {
  const response = await fetchFn(url.href, { method: options.method, headers: options.headers, ...(options.body ? { body: Buffer.from(options.body) } : {}), signal: options.signal, redirect: 'manual' });
  const fail = async (reason: OutboundFetchError['reason']): Promise<never> => {
    await response.body?.cancel().catch(() => undefined);
    throw new OutboundFetchError(reason, reason === 'http_status' ? response.status : undefined);
  };
  if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) return fail('redirect');
  if (response.status < 200 || response.status >= 300) return fail('http_status');
  const declared = Number(response.headers.get('content-length') ?? NaN);
  const truncate = options.oversizedBody === 'truncate';
  if (!truncate && Number.isFinite(declared) && declared > options.maxBytes) return fail('too_large');
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
        if (!truncate) throw new OutboundFetchError('too_large');
        chunks.push(value.subarray(0, value.byteLength - (size - options.maxBytes)));
        break;
      }
      chunks.push(value);
    }
  }
  return { status: response.status, body: new Uint8Array(Buffer.concat(chunks)), contentType: response.headers.get('content-type') };
}
