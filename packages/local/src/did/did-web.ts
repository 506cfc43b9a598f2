import { isIP } from 'node:net';
import { boundedFetch, BoundedFetchError } from '../verifier/bounded-fetch.js';
import type { DidDocument } from './did-document.js';
import { DidResolutionError } from './did-resolution-error.js';

export interface DidWebOptions {
  fetch: typeof fetch;
  timeoutMs: number;
  maxBytes: number;
  signal: AbortSignal;
  /** Allow IP literals, localhost and explicit non-443 ports (tests only). */
  allowInsecureHosts?: boolean;
}

const invalidHost = () => new DidResolutionError('did.invalid', 'The did:web identifier is not a valid host and path');

/**
 * did:web makes the verifier fetch a URL chosen by the wallet: unless allowed for tests, only
 * public DNS names on the default https port (no IP literals, numeric IPv4 forms or localhost).
 */
function checkPublicHost(host: string, allowInsecureHosts: boolean): void {
  let url: URL;
  try {
    url = new URL(`https://${host}/`);
  } catch {
    throw invalidHost();
  }
  if (allowInsecureHosts) return;
  // URL normalizes numeric forms (2130706433, 0x7f.1) to dotted IPv4, so isIP sees them.
  const name = url.hostname.toLowerCase().replace(/\.$/, '');
  if (isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost')) throw new DidResolutionError('did.invalid', 'The did:web host must be a public DNS name');
  if (url.port !== '') throw new DidResolutionError('did.invalid', 'The did:web host must not name a port other than 443');
}

/** did:web → https URL (did:web spec 3.2): host[%3Aport][:path…] → /.well-known/did.json or /path/did.json. */
export function didWebUrl(id: string, allowInsecureHosts = false): string {
  const [hostPart, ...path] = id.split(':');
  let host: string;
  try {
    host = decodeURIComponent(hostPart ?? '');
  } catch {
    throw invalidHost();
  }
  if (!/^[A-Za-z0-9.-]+(:\d{1,5})?$/.test(host) || path.some((p) => p.length === 0)) throw invalidHost();
  checkPublicHost(host, allowInsecureHosts);
  let segments: string[];
  try {
    segments = path.map((p) => encodeURIComponent(decodeURIComponent(p)));
  } catch {
    throw invalidHost();
  }
  return segments.length === 0 ? `https://${host}/.well-known/did.json` : `https://${host}/${segments.join('/')}/did.json`;
}

export async function resolveDidWeb(did: string, id: string, options: DidWebOptions): Promise<DidDocument> {
  const url = didWebUrl(id, options.allowInsecureHosts);
  let body: Uint8Array;
  try {
    ({ body } = await boundedFetch(options.fetch, url, { accept: 'application/did+json, application/json', timeoutMs: options.timeoutMs, maxBytes: options.maxBytes, signal: options.signal, redirect: 'error' }));
  } catch (error) {
    // Generic on purpose: no HTTP status or size echoed back about a host the wallet chose.
    if (error instanceof BoundedFetchError) throw new DidResolutionError('did.resolution_failed', 'The did:web document could not be fetched');
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
