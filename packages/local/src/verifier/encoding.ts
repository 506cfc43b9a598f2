import * as nodeCrypto from 'node:crypto';
import { createHash } from 'node:crypto';

/** Strict base64url (no padding); Node's decoder would silently skip invalid characters. */
const BASE64URL = /^[A-Za-z0-9_-]*$/;

export function base64UrlToBytes(value: string): Uint8Array {
  if (!BASE64URL.test(value) || value.length % 4 === 1) throw new TypeError('Invalid base64url');
  return new Uint8Array(Buffer.from(value, 'base64url'));
}

export const bytesToBase64Url = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');

/** Fatal: invalid UTF-8 throws rather than turning into U+FFFD. */
export const UTF8 = new TextDecoder('utf-8', { fatal: true });
export const base64UrlToUtf8 = (value: string): string => UTF8.decode(base64UrlToBytes(value));

/** Hash names as used by SD-JWT `_sd_alg` / transaction data (IANA "Named Information" names). */
const HASHES: Record<string, string> = { 'sha-256': 'sha256', 'sha-384': 'sha384', 'sha-512': 'sha512' };

// Own names only: "constructor" is in every object, not a hash.
export const isSupportedHash = (name: string): boolean => Object.hasOwn(HASHES, name);

// node:crypto's one-shot hash (Node 20.12+) builds no Hash object; read off the namespace so that
// older Node 20 releases, which lack it, fall back to createHash instead of failing to link.
const oneShotHash = (nodeCrypto as { hash?: (algorithm: string, data: string | Uint8Array, outputEncoding: 'buffer') => Buffer }).hash;

export function digest(name: string, data: string | Uint8Array): Uint8Array {
  const node = isSupportedHash(name) ? HASHES[name] : undefined;
  if (node === undefined) throw new TypeError(`Unsupported hash algorithm ${name}`);
  return new Uint8Array(oneShotHash ? oneShotHash(node, data, 'buffer') : createHash(node).update(data).digest());
}

export const sha256 = (data: string | Uint8Array): Uint8Array => digest('sha-256', data);

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
