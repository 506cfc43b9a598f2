import { withinJsonDepth } from './json-depth.js';

/**
 * Response parameters arrive as JSON strings in form posts and as JSON values inside a JWE or
 * DC API `data`. Returns the parsed value, or `undefined` when a string is not JSON.
 */
export function parseJsonParameter(value: unknown): { ok: true; value: unknown } | { ok: false } {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value) as unknown;
    } catch {
      return { ok: false };
    }
  }
  // Deep nesting would overflow structuredClone / JSON.stringify when the record is stored.
  return withinJsonDepth(parsed) ? { ok: true, value: parsed } : { ok: false };
}

/** Keeps wallet-chosen strings short when they are used as a path segment. */
export const clip = (value: string, max = 100): string => (value.length > max ? `${value.slice(0, max)}…` : value);
