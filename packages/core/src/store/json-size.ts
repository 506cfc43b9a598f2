/**
 * About the size in bytes of `JSON.stringify(value)` as UTF-8: every string counts its UTF-8 bytes
 * and its two quotes, escapes aside (a `"` or a control character counts one byte, not two or
 * six); members JSON leaves out count nothing. Past `limit` the walk stops and answers
 * `Infinity`, so measuring costs at most about `limit` bytes of work whatever the value holds. It
 * walks with a stack of its own: a value nested a million deep is measured (or refused) without
 * a stack overflow, where JSON.stringify would throw.
 */
export function jsonSize(value: unknown, limit = Infinity): number {
  let size = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    size += scalarSize(item);
    if (typeof item === 'object' && item !== null) {
      if (Array.isArray(item)) {
        // Brackets and the commas between items; an item JSON cannot hold becomes null.
        size += 2 + Math.max(0, item.length - 1);
        if (size > limit) return Infinity;
        for (let i = 0; i < item.length; i++) {
          const member: unknown = item[i];
          if (isOmitted(member)) size += 4;
          else pending.push(member);
        }
      } else {
        let members = 0;
        for (const key of Object.keys(item)) {
          const member: unknown = (item as Record<string, unknown>)[key];
          if (isOmitted(member)) continue;
          // The key in quotes and its colon.
          size += Buffer.byteLength(key, 'utf8') + 3;
          if (size > limit) return Infinity;
          members++;
          pending.push(member);
        }
        size += 2 + Math.max(0, members - 1);
      }
    }
    if (size > limit) return Infinity;
  }
  return size;
}

function scalarSize(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return Buffer.byteLength(value, 'utf8') + 2;
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
