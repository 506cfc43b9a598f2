import { decodeWalletCbor, type CborBudget } from '@vp-authorizer/core/formats';
import { Encoder, Tag } from 'cbor-x';

// Byte strings encode as plain bstr (no tag 64).
const encoder = new Encoder({ useRecords: false, tagUint8Array: false, mapsAsObjects: false, variableMapSize: true });

/**
 * Wallet CBOR through core's hardened decoder (no shared references, packed values or other
 * cbor-x extensions; bounded depth, lengths and work). Maps stay Maps; tag 24 stays a Tag whose
 * value is the embedded bytes exactly as received.
 */
export const decodeCbor = (bytes: Uint8Array, budget?: CborBudget): unknown => decodeWalletCbor(bytes, budget);
export const encodeCbor = (value: unknown): Uint8Array => new Uint8Array(encoder.encode(value));

/** The embedded bytes of a `#6.24(bstr)` item, or undefined when the value is not one. */
export function tag24Content(value: unknown): Uint8Array | undefined {
  return value instanceof Tag && value.tag === 24 && value.value instanceof Uint8Array ? value.value : undefined;
}

/** CBOR encoding of `#6.24(bstr content)` (preferred serialization: minimal length header). */
export function tag24Encoding(content: Uint8Array): Uint8Array {
  const n = content.length;
  const header =
    n < 24 ? [0x40 + n] : n < 0x100 ? [0x58, n] : n < 0x10000 ? [0x59, n >> 8, n & 0xff] : [0x5a, (n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
  const encoded = new Uint8Array(2 + header.length + n);
  encoded.set([0xd8, 0x18, ...header]);
  encoded.set(content, 2 + header.length);
  return encoded;
}

export const isMap = (value: unknown): value is Map<unknown, unknown> => value instanceof Map;
export const isBytes = (value: unknown): value is Uint8Array => value instanceof Uint8Array;
