/**
 * A deep copy of a JSON value, equal to `JSON.parse(JSON.stringify(value))` but built directly:
 * plain objects and arrays are walked, everything else (class instances, objects with `toJSON`,
 * very deep nesting) takes the JSON round trip for its subtree, so the result is the same value
 * the Redis store would hand back. About 3–5× cheaper than the round trip on an authorization
 * record, and strings (immutable) are shared instead of copied.
 */
export function jsonCopy<T>(value: T): T {
  if (value === undefined) return undefined as T;
  return copyValue(value, 0) as T;
}

/** Past this depth the JSON round trip (no JS recursion of ours) copies the rest. */
const MAX_WALK_DEPTH = 64;

function copyValue(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      // JSON has neither NaN, ±Infinity nor -0.
      return Number.isFinite(value) ? value + 0 : null;
    case 'object':
      return value === null ? null : copyObject(value, depth);
    default:
      // bigint throws as JSON.stringify does; undefined, functions and symbols are not JSON.
      return viaJson(value);
  }
}

function copyObject(value: object, depth: number): unknown {
  if (depth >= MAX_WALK_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') return viaJson(value);
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return viaJson(value);
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      // In an array, what JSON cannot hold becomes null (a hole too).
      out[i] = isOmitted(item) ? null : copyValue(item, depth + 1);
    }
    return out;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return viaJson(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const member: unknown = (value as Record<string, unknown>)[key];
    if (isOmitted(member)) continue;
    const copied = copyValue(member, depth + 1);
    // A member named __proto__ must stay a member (as JSON.parse makes it), never set the prototype.
    if (key === '__proto__') Object.defineProperty(out, key, { value: copied, enumerable: true, writable: true, configurable: true });
    else out[key] = copied;
  }
  return out;
}

/** Members JSON.stringify leaves out of an object. */
const isOmitted = (value: unknown): boolean => value === undefined || typeof value === 'function' || typeof value === 'symbol';

function viaJson(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}
