import { inflateSync } from 'node:zlib';
import { StatusListError } from './status-list-error.js';

export const STATUS_VALID = 0;
export const STATUS_INVALID = 1;
export const STATUS_SUSPENDED = 2;

/** A decoded status list (Token Status List section 4): `bits` per entry, LSB-first in each byte. */
export interface StatusList {
  bits: 1 | 2 | 4 | 8;
  list: Uint8Array;
}

const MAX_INFLATED = 16 * 1024 * 1024;

/** Decodes `status_list: {bits, lst}` where `lst` is base64url(zlib(DEFLATE(bytes))). */
export function decodeStatusList(statusList: unknown): StatusList {
  const { bits, lst } = (statusList ?? {}) as { bits?: unknown; lst?: unknown };
  if (bits !== 1 && bits !== 2 && bits !== 4 && bits !== 8) throw new StatusListError('status.unavailable', 'The status list has an invalid bits value');
  if (typeof lst !== 'string' || !/^[A-Za-z0-9_-]+$/.test(lst)) throw new StatusListError('status.unavailable', 'The status list lst is not base64url');
  try {
    // A size cap keeps a small compressed list from inflating into an exhausting buffer.
    return { bits, list: new Uint8Array(inflateSync(Buffer.from(lst, 'base64url'), { maxOutputLength: MAX_INFLATED })) };
  } catch {
    throw new StatusListError('status.unavailable', 'The status list lst is not valid zlib data');
  }
}

/** The status value at `idx`; out of range is an error (TSL: SHOULD reject). */
export function readStatusValue({ bits, list }: StatusList, idx: number): number {
  if (!Number.isSafeInteger(idx) || idx < 0) throw new StatusListError('status.unavailable', 'The status index is not a non-negative integer');
  const bitOffset = idx * bits;
  const byte = list[Math.floor(bitOffset / 8)];
  if (byte === undefined) throw new StatusListError('status.unavailable', 'The status index is outside the status list');
  return (byte >> (bitOffset % 8)) & ((1 << bits) - 1);
}
