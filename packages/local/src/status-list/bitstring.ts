import { gunzipSync } from 'node:zlib';
import { StatusListError } from './status-list-error.js';

/** Bitstring Status List 1.0 section 4: a status list is at least 16 KB (131,072 entries of one bit). */
export const MIN_BITSTRING_BYTES = 16_384;
const MAX_BITSTRING_BYTES = 16 * 1024 * 1024;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * The bitstring of an `encodedList`: GZIP of the bits, base64url encoded, with the multibase
 * prefix `u` (Bitstring Status List) or without it (StatusList2021). Inflating is capped so a
 * small list cannot expand into an exhausting buffer.
 */
export function decodeBitstring(encodedList: unknown, multibase: boolean): Uint8Array {
  if (typeof encodedList !== 'string') throw new StatusListError('status.unavailable', 'The status list has no encodedList');
  const encoded = multibase ? (encodedList.startsWith('u') ? encodedList.slice(1) : undefined) : encodedList;
  if (encoded === undefined || !BASE64URL.test(encoded)) throw new StatusListError('status.unavailable', `The encodedList is not ${multibase ? 'multibase (u) ' : ''}base64url`);
  let bits: Uint8Array;
  try {
    bits = new Uint8Array(gunzipSync(Buffer.from(encoded, 'base64url'), { maxOutputLength: MAX_BITSTRING_BYTES }));
  } catch {
    throw new StatusListError('status.unavailable', 'The encodedList is not GZIP data within 16 MiB');
  }
  if (bits.length < MIN_BITSTRING_BYTES) throw new StatusListError('status.unavailable', 'The status list is shorter than the 131,072 bits it must have at least');
  return bits;
}

/** The `size`-bit status at `index`: entry 0 starts at the left-most (most significant) bit. */
export function readBitstringStatus(bits: Uint8Array, index: number, size: number): number {
  if (!Number.isSafeInteger(index) || index < 0) throw new StatusListError('status.unavailable', 'The status list index is not a non-negative integer');
  if (!Number.isSafeInteger(size) || size < 1) throw new StatusListError('status.unavailable', 'The status size is not a positive integer');
  // Checked before any bit arithmetic: 32-bit shifts would wrap a huge index back into the list.
  if ((index + 1) * size > bits.length * 8) throw new StatusListError('status.unavailable', 'The status list index is outside the status list');
  let value = 0;
  for (let bit = index * size; bit < (index + 1) * size; bit++) {
    value = value * 2 + ((bits[Math.floor(bit / 8)]! >> (7 - (bit % 8))) & 1);
  }
  return value;
}
