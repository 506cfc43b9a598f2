import { boundedFetch, BoundedFetchError } from '../verifier/bounded-fetch.js';
import type { DidDocument } from './did-document.js';
import { DidResolutionError } from './did-resolution-error.js';

export interface DidWebOptions {
  fetch: typeof fetch;
  timeoutMs: number;
  maxBytes: number;
  signal: AbortSignal;
}

/** did:web → https URL (did:web spec 3.2): host[%3Aport][:path…] → /.well-known/did.json or /path/did.json. */
export function didWebUrl(id: string): string {
  const [hostPart, ...path] = id.split(':');
  const host = decodeURIComponent(hostPart ?? '');
  if (!/^[A-Za-z0-9.-]+(:\d{1,5})?$/.test(host) || path.some((p) => p.length === 0)) throw new DidResolutionError('did.invalid', 'The did:web identifier is not a valid host and path');
  const segments = path.map((p) => encodeURIComponent(decodeURIComponent(p)));
  return segments.length === 0 ? `https://${host}/.well-known/did.json` : `https://${host}/${segments.join('/')}/did.json`;
}

export async function resolveDidWeb(did: string, id: string, options: DidWebOptions): Promise<DidDocument> {
  const url = didWebUrl(id);
  let body: Uint8Array;
  try {
    ({ body } = await boundedFetch(options.fetch, url, { accept: 'application/did+json, application/json', timeoutMs: options.timeoutMs, maxBytes: options.maxBytes, signal: options.signal }));
  } catch (error) {
    if (error instanceof BoundedFetchError) throw new DidResolutionError('did.resolution_failed', `The did:web document could not be fetched: ${error.message}`);
    throw error;
  }
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw new DidResolutionError('did.resolution_failed', 'The did:web document is not JSON');
  }
  if (typeof doc !== 'object' || doc === null || (doc as DidDocument).id !== did) throw new DidResolutionError('did.resolution_failed', 'The did:web document id does not match the DID');
  return doc as DidDocument;
}
