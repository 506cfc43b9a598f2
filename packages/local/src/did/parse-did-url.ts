import { DidResolutionError } from './did-resolution-error.js';

// did-core: method-name = 1*method-char (lowercase letters, digits); method-specific-id per ABNF.
const DID_URL = /^did:([a-z0-9]+):((?:[A-Za-z0-9._-]|%[0-9A-Fa-f]{2}|:)*(?:[A-Za-z0-9._-]|%[0-9A-Fa-f]{2}))(?:[/?][^#]*)?(?:#(.*))?$/;

export interface DidUrl {
  did: string;
  method: string;
  id: string;
  fragment?: string;
}

export function parseDidUrl(value: string): DidUrl {
  const match = value.length <= 8_192 ? DID_URL.exec(value) : null;
  if (!match) throw new DidResolutionError('did.invalid', 'The value is not a valid DID or DID URL');
  const [, method, id, fragment] = match;
  return { did: `did:${method}:${id}`, method: method!, id: id!, ...(fragment === undefined ? {} : { fragment }) };
}
