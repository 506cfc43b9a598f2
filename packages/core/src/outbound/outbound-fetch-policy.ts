import { isIP } from 'node:net';
import { requestWithCustomFetch } from './custom-fetch-request.js';
import { OutboundFetchError } from './outbound-fetch-error.js';
import type { OutboundResponse } from './outbound-response.js';
import { systemLookup, type OutboundLookup, type ResolvedAddress } from './outbound-lookup.js';
import { pinnedRequest } from './pinned-request.js';
import { isPublicAddress } from './public-address.js';

/**
 * The one policy for every outbound request: URLs a wallet can make the verifier fetch (did:web
 * documents, status lists) and webhook deliveries to URLs a relying party names. https on the
 * default port to a DNS name whose every address is public, resolved once and connected to as
 * resolved, no redirects, bounded in size and time.
 */
export interface OutboundFetchPolicy {
  lookup: OutboundLookup;
  /** Cap on the response status line + headers. */
  maxHeaderBytes: number;
  /** Turns the destination checks off (http, any port, IP literals, private addresses). Tests only. */
  dangerouslyAllowAnyDestination: boolean;
  /** A caller's own transport: URL checks, redirect refusal and bounds still apply; no DNS pinning. */
  fetch?: typeof fetch;
  /** @internal CA certificates (PEM) trusted instead of the system roots: TLS tests only, not a verifier option. */
  ca?: readonly string[];
}

export interface OutboundGetRequest {
  accept: string;
  /** One deadline for resolution, connection, headers and body. */
  timeoutMs: number;
  maxBytes: number;
  /** The caller's signal: when it aborts, its reason is rethrown (verification stops). */
  signal: AbortSignal;
}

export interface OutboundPostRequest {
  contentType: string;
  /** Extra request headers (names in lower case). */
  headers: Record<string, string>;
  body: Uint8Array;
  /** One deadline for resolution, connection, the upload, headers and response body. */
  timeoutMs: number;
  /** Cap on the response body (read and discarded by most callers). */
  maxBytes: number;
  /**
   * What a 2xx body past `maxBytes` does: 'fail' (default) throws `too_large`; 'truncate' keeps the
   * first `maxBytes`, stops reading and closes the connection, and the 2xx stands (a webhook
   * receiver acknowledged the delivery, whatever it wrote after).
   */
  oversizedBody?: 'fail' | 'truncate';
  signal: AbortSignal;
}

export type { OutboundResponse } from './outbound-response.js';

export const DEFAULT_MAX_HEADER_BYTES = 16_384;

export function outboundFetchPolicy(options: Partial<OutboundFetchPolicy> = {}): OutboundFetchPolicy {
  return { lookup: systemLookup, maxHeaderBytes: DEFAULT_MAX_HEADER_BYTES, dangerouslyAllowAnyDestination: false, ...options };
}

const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * The checks that need no network: scheme, port, host form. Throws OutboundFetchError
 * ('destination') before anything is sent.
 */
export function checkOutboundUrl(raw: string, policy: OutboundFetchPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundFetchError('destination');
  }
  // Credentials in a wallet-chosen URL would be sent to that host: never meaningful here.
  if (url.username !== '' || url.password !== '') throw new OutboundFetchError('destination');
  if (policy.dangerouslyAllowAnyDestination) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OutboundFetchError('destination');
    return url;
  }
  if (url.protocol !== 'https:' || url.port !== '') throw new OutboundFetchError('destination');
  // URL has already normalized numeric IPv4 forms (2130706433, 0x7f.1) to dotted quads.
  const name = bareHost(url).toLowerCase().replace(/\.$/, '');
  // A single-label name would be completed by resolver search domains into an internal name.
  if (isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost') || !name.includes('.')) throw new OutboundFetchError('destination');
  return url;
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Resolves once; refuses when ANY address is not public (a name may mix public and internal records). */
async function resolveChecked(url: URL, policy: OutboundFetchPolicy, signal: AbortSignal): Promise<ResolvedAddress> {
  const host = bareHost(url);
  const family = isIP(host);
  const addresses = family !== 0 ? [{ address: host, family }] : await untilAborted(policy.lookup(host), signal);
  if (addresses.length === 0) throw new OutboundFetchError('network');
  if (!policy.dangerouslyAllowAnyDestination && !addresses.every((a) => isPublicAddress(a.address))) throw new OutboundFetchError('destination');
  return addresses[0]!;
}

/**
 * GET a wallet-influenced URL under the policy. Failures are OutboundFetchError; the caller's
 * abort is rethrown as its own reason.
 */
export function outboundGet(raw: string, request: OutboundGetRequest, policy: OutboundFetchPolicy): Promise<OutboundResponse> {
  return outboundRequest(raw, { method: 'GET', headers: { accept: request.accept }, timeoutMs: request.timeoutMs, maxBytes: request.maxBytes, signal: request.signal }, policy);
}

/**
 * POST to a URL under the same policy (webhook deliveries). Any status but 2xx is an
 * OutboundFetchError (`http_status` with the status, `redirect` for a 3xx, never followed).
 */
export function outboundPost(raw: string, request: OutboundPostRequest, policy: OutboundFetchPolicy): Promise<OutboundResponse> {
  const headers = { ...request.headers, 'content-type': request.contentType };
  const oversizedBody = request.oversizedBody ?? 'fail';
  return outboundRequest(raw, { method: 'POST', headers, body: request.body, timeoutMs: request.timeoutMs, maxBytes: request.maxBytes, oversizedBody, signal: request.signal }, policy);
}

interface OutboundRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: Uint8Array;
  timeoutMs: number;
  maxBytes: number;
  oversizedBody?: 'fail' | 'truncate';
  signal: AbortSignal;
}

async function outboundRequest(raw: string, request: OutboundRequest, policy: OutboundFetchPolicy): Promise<OutboundResponse> {
  request.signal.throwIfAborted();
  const url = checkOutboundUrl(raw, policy);
  const deadline = AbortSignal.timeout(request.timeoutMs);
  const signal = AbortSignal.any([request.signal, deadline]);
  const { method, headers, maxBytes } = request;
  const body = { ...(request.body ? { body: request.body } : {}), oversizedBody: request.oversizedBody ?? 'fail' };
  try {
    if (policy.fetch) return await requestWithCustomFetch(policy.fetch, url, { method, headers, ...body, maxBytes, signal });
    const pinned = await resolveChecked(url, policy, signal);
    return await pinnedRequest(url, pinned, { method, headers, ...body, maxBytes, maxHeaderBytes: policy.maxHeaderBytes, signal, ...(policy.ca ? { ca: policy.ca } : {}) });
  } catch (error) {
    if (request.signal.aborted) throw request.signal.reason;
    if (error instanceof OutboundFetchError) throw error;
    if (deadline.aborted) throw new OutboundFetchError('timeout');
    throw new OutboundFetchError('network');
  }
}
