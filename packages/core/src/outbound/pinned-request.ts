import type { IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { OutboundFetchError } from './outbound-fetch-error.js';
import type { OutboundResponse } from './outbound-response.js';
import type { ResolvedAddress } from './outbound-lookup.js';

export interface PinnedRequestOptions {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** Sent with a Content-Length (POST). */
  body?: Uint8Array;
  maxBytes: number;
  /** A 2xx body past maxBytes: 'fail' (too_large) or 'truncate' (keep maxBytes, close the connection, answer the 2xx). */
  oversizedBody?: 'fail' | 'truncate';
  maxHeaderBytes: number;
  signal: AbortSignal;
  ca?: readonly string[];
}

/**
 * Send one request to `url` over a connection to `address`, the address that was checked: the
 * socket's lookup answers with it instead of resolving again (a rebinding DNS server gets no
 * second question). TLS still uses the URL's host name for SNI and certificate verification.
 * Anything but a 2xx fails (3xx as `redirect`, never followed); the response body is bounded
 * (past the cap: `too_large`, or with `oversizedBody: 'truncate'` the 2xx with the first bytes).
 */
export function pinnedRequest(url: URL, address: ResolvedAddress, options: PinnedRequestOptions): Promise<OutboundResponse> {
  const secure = url.protocol === 'https:';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const pinnedLookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    // Node asks with {all: true} when it may race address families (autoSelectFamily).
    if (lookupOptions.all) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  };
  return new Promise<OutboundResponse>((resolve, reject) => {
    if (options.signal.aborted) return reject(options.signal.reason);
    const headers: Record<string, string> = { ...options.headers, 'accept-encoding': 'identity' };
    if (options.body) headers['content-length'] = String(options.body.byteLength);
    const req = (secure ? httpsRequest : httpRequest)({
      host,
      port: url.port === '' ? (secure ? 443 : 80) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: options.method,
      headers,
      lookup: pinnedLookup,
      // A fresh connection per request: a pooled socket could lead to another (unchecked) address.
      agent: false,
      maxHeaderSize: options.maxHeaderBytes,
      ...(secure ? { rejectUnauthorized: true, ...(isIP(host) === 0 ? { servername: host } : {}), ...(options.ca ? { ca: [...options.ca] } : {}) } : {}),
    });
    const onAbort = () => fail(options.signal.reason);
    const fail = (error: unknown) => {
      options.signal.removeEventListener('abort', onAbort);
      req.destroy();
      reject(error); // the first settlement wins; later errors from the torn-down socket are ignored
    };
    options.signal.addEventListener('abort', onAbort, { once: true });
    req.on('error', fail);
    req.on('response', (res: IncomingMessage) => {
      res.on('error', fail);
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400) return fail(new OutboundFetchError('redirect'));
      if (status < 200 || status >= 300) return fail(new OutboundFetchError('http_status', status));
      const truncate = options.oversizedBody === 'truncate';
      const declared = Number(res.headers['content-length'] ?? NaN);
      if (!truncate && Number.isFinite(declared) && declared > options.maxBytes) return fail(new OutboundFetchError('too_large'));
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      res.on('data', (chunk: Buffer) => {
        if (truncated) return;
        size += chunk.length;
        if (size <= options.maxBytes) return void chunks.push(chunk);
        if (!truncate) return fail(new OutboundFetchError('too_large'));
        // Enough read: answer with what fits, then tear the connection down (fail() after a resolve is a no-op but the cleanup).
        truncated = true;
        chunks.push(chunk.subarray(0, chunk.length - (size - options.maxBytes)));
        resolve({ status, body: new Uint8Array(Buffer.concat(chunks)), contentType: res.headers['content-type'] ?? null });
        fail(new OutboundFetchError('network'));
      });
      res.on('close', () => {
        options.signal.removeEventListener('abort', onAbort);
        // A connection that closes before the declared end is a failure, not a short document.
        if (!res.complete) return fail(new OutboundFetchError('network'));
        resolve({ status, body: new Uint8Array(Buffer.concat(chunks)), contentType: res.headers['content-type'] ?? null });
      });
    });
    req.end(options.body ? Buffer.from(options.body) : undefined);
  });
}
