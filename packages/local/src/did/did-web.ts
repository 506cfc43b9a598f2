import { type OutboundFetchPolicy, OutboundFetchError } from '@vp-authorizer/core';
import { checkOutboundUrl, outboundGet } from '@vp-authorizer/core/internal';
import type { DidDocument } from './did-document.js';
import { DidResolutionError } from './did-resolution-error.js';

export interface DidWebOptions {
  /** did:web makes the verifier fetch a URL chosen by the wallet: the outbound fetch policy applies. */
  outbound: OutboundFetchPolicy;
  timeoutMs: number;
  maxBytes: number;
  signal: AbortSignal;
}

const invalidHost = () => new DidResolutionError('did.invalid', 'The did:web identifier is not a valid host and path');

/** did:web → https URL (did:web spec 3.2): host[%3Aport][:path…] → /.well-known/did.json or /path/did.json. */
export function didWebUrl(id: string): string {
  const [hostPart, ...path] = id.split(':');
  let host: string;
  try {
    host = decodeURIComponent(hostPart ?? '');
  } catch {
    throw invalidHost();
  }
  if (!/^[A-Za-z0-9.-]+(:\d{1,5})?$/.test(host) || path.some((p) => p.length === 0)) throw invalidHost();
  let segments: string[];
  try {
    segments = path.map((p) => encodeURIComponent(decodeURIComponent(p)));
  } catch {
    throw invalidHost();
  }
  return segments.length === 0 ? `https://${host}/.well-known/did.json` : `https://${host}/${segments.join('/')}/did.json`;
}

export async function resolveDidWeb(did: string, id: string, options: DidWebOptions): Promise<DidDocument> {
  const url = didWebUrl(id);
  try {
    checkOutboundUrl(url, options.outbound);
  } catch {
    throw new DidResolutionError('did.invalid', 'The did:web host must be a public DNS name on the default https port');
  }
  let body: Uint8Array;
  try {
    ({ body } = await outboundGet(url, { accept: 'application/did+json, application/json', timeoutMs: options.timeoutMs, maxBytes: options.maxBytes, signal: options.signal }, options.outbound));
  } catch (error) {
    // Generic on purpose: whether the name resolved to a refused address, timed out or answered
    // an error status, the wallet learns nothing about a host it chose.
    if (error instanceof OutboundFetchError) throw new DidResolutionError('did.resolution_failed', 'The did:web document could not be fetched');
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
