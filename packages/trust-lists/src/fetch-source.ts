import { open } from 'node:fs/promises';
import { OutboundFetchError, type OutboundFetchPolicy } from '@vp-authorizer/core';
import { outboundGet } from '@vp-authorizer/core/internal';
import { TrustListError } from './trust-list-error.js';

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
}

/** Fetches of the same URL in flight at once, across every trustLists() instance of the process: one request serves them all. */
const inflight = new Map<string, Promise<Uint8Array>>();

/**
 * The bytes of a source: an https URL through the outbound-fetch policy (public destinations, no
 * redirects, bounded size and time), anything else a file path (offline deployments), read up to
 * the same size bound.
 */
export function fetchSource(location: string, accept: string, limits: FetchLimits, policy: OutboundFetchPolicy, where: string): Promise<Uint8Array> {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(location)) return readBoundedFile(location, limits.maxBytes, where);
  const key = `${accept}\n${location}`;
  const running = inflight.get(key);
  if (running) return running;
  const request = outboundGet(location, { accept, timeoutMs: limits.timeoutMs, maxBytes: limits.maxBytes, signal: new AbortController().signal }, policy)
    .then((response) => response.body)
    .catch((error: unknown) => {
      if (error instanceof OutboundFetchError && error.reason === 'too_large') throw new TrustListError('too_large', `${where}: the document is larger than ${limits.maxBytes} bytes`, { cause: error });
      throw new TrustListError('fetch_failed', `${where}: ${error instanceof OutboundFetchError ? `${error.code}: ${error.message}` : 'the fetch failed'}`, { cause: error });
    })
    .finally(() => inflight.delete(key));
  inflight.set(key, request);
  return request;
}

async function readBoundedFile(path: string, maxBytes: number, where: string): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(path.startsWith('file:') ? new URL(path) : path, 'r');
  } catch (error) {
    throw new TrustListError('fetch_failed', `${where}: the file cannot be opened`, { cause: error });
  }
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) throw new TrustListError('too_large', `${where}: the file is larger than ${maxBytes} bytes`);
    const buffer = Buffer.alloc(size);
    await handle.read(buffer, 0, size, 0);
    return new Uint8Array(buffer);
  } finally {
    await handle.close();
  }
}
