/**
 * About the length of `JSON.stringify(value)`, in characters (UTF-16 code units, as
 * `String.prototype.length` counts them; for ASCII text, its size in bytes): escapes aside (a `"`
 * or a control character counts one, not two or six), members JSON leaves out count nothing.
 * Past `limit` the walk stops and answers `Infinity`, so measuring costs at most about `limit`
 * characters of work whatever the value holds. It walks with a stack of its own: a value nested
 * a million deep is measured (or refused) without a stack overflow, where JSON.stringify throws.
 *
 * What the create body's caps count. A string's length is read, not scanned, so measuring a
 * value costs a walk over its objects only (about a third of JSON.stringify's time on an
 * authorization record).
 */
export function jsonSize(value: unknown, limit = Infinity): number {
  return measure(value, limit, 0, 0);
}

/** What `accountedBytes` adds for each object or array: V8 spends about 60 bytes of heap on even `{}` or `[]`. */
export const NODE_OVERHEAD_BYTES = 64;
/** What `accountedBytes` adds for each scalar value and each object key: a heap pointer and a small header. */
export const SCALAR_OVERHEAD_BYTES = 16;

/**
 * Accounted bytes ≈ heap: jsonSize plus NODE_OVERHEAD_BYTES per object or array and
 * SCALAR_OVERHEAD_BYTES per scalar (string, number, boolean, null) and per object key. JSON length
 * alone undercounts what a parsed value holds: `{}` is 2 characters but about 60 bytes of heap,
 * so a quota counted in characters could be filled with ten to twenty times its size in memory.
 * What the memory store's quota counts. Same bound on work as jsonSize (Infinity past `limit`).
 */
export function accountedBytes(value: unknown, limit = Infinity): number {
  return measure(value, limit, NODE_OVERHEAD_BYTES, SCALAR_OVERHEAD_BYTES);
}

/** The walk behind jsonSize and accountedBytes: JSON characters plus `node` per object or array and `scalar` per scalar and key. */
function measure(value: unknown, limit: number, node: number, scalar: number): number {
  const isNode = typeof value === 'object' && value !== null;
  let size = scalarSize(value) + (isNode ? 0 : scalar);
  if (!isNode) return size > limit ? Infinity : size;
  const pending: object[] = [value];
  while (pending.length > 0) {
    const item = pending.pop()!;
    if (Array.isArray(item)) {
      // Brackets and the commas between items; an item JSON cannot hold becomes null.
      size += 1 + Math.max(1, item.length) + node;
      if (size > limit) return Infinity;
      for (let i = 0; i < item.length; i++) {
        const member: unknown = item[i];
        size += (isOmitted(member) ? 4 : scalarSize(member)) + (typeof member === 'object' && member !== null ? 0 : scalar);
        if (typeof member === 'object' && member !== null) pending.push(member);
      }
    } else {
      // Braces, then per member its quoted key and a colon, and a comma before every member but the first.
      size += 2 + node;
      let comma = 0;
      for (const key in item) {
        if (!Object.hasOwn(item, key)) continue;
        const member: unknown = (item as Record<string, unknown>)[key];
        if (isOmitted(member)) continue;
        size += comma + key.length + 3 + scalarSize(member) + scalar + (typeof member === 'object' && member !== null ? 0 : scalar);
        comma = 1;
        if (size > limit) return Infinity;
        if (typeof member === 'object' && member !== null) pending.push(member);
      }
    }
    if (size > limit) return Infinity;
  }
  return size;
}

/** The characters a value takes by itself (an object or array: none; its walk adds them). */
function scalarSize(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'object':
      return value === null ? 4 : 0;
    default:
      return 0;
  }
}

/** Members JSON.stringify leaves out of an object. */
const isOmitted = (value: unknown): boolean => value === undefined || typeof value === 'function' || typeof value === 'symbol';
