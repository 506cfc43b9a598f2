import { deflateSync, inflateSync } from 'node:zlib';
import { base64UrlToBytes, toBase64Url } from './base64url.js';

export type StatusListBits = 1 | 2 | 4 | 8;

function checkBits(bits: number): asserts bits is StatusListBits {
  if (![1, 2, 4, 8].includes(bits)) throw new RangeError('status list bits must be 1, 2, 4 or 8');
}

/**
 * Token Status List `lst` (draft-ietf-oauth-status-list §4.1): `bits` bits per entry, packed
 * LSB-first within each byte, then ZLIB-deflated and base64url-encoded.
 */
export function encodeStatusList(statuses: readonly number[], bits: StatusListBits): string {
  checkBits(bits);
  const bytes = new Uint8Array(Math.ceil((statuses.length * bits) / 8));
  statuses.forEach((status, idx) => {
    if (!Number.isInteger(status) || status < 0 || status >= 2 ** bits) throw new RangeError(`status ${status} does not fit in ${bits} bits`);
    const bit = idx * bits;
    bytes[bit >> 3] = bytes[bit >> 3]! | (status << (bit & 7));
  });
  return toBase64Url(deflateSync(bytes));
}

/** Reads the entry at `idx` of an encoded `lst`; throws when `idx` is out of range. */
export function readStatusList(lst: string, bits: StatusListBits, idx: number): number {
  checkBits(bits);
  const bytes = inflateSync(base64UrlToBytes(lst));
  const bit = idx * bits;
  if (!Number.isInteger(idx) || idx < 0 || bit >> 3 >= bytes.length) throw new RangeError(`status index ${idx} is out of range`);
  return (bytes[bit >> 3]! >> (bit & 7)) & (2 ** bits - 1);
}
