import type { JsonObject, SdJwtDisclosure } from '../../model/parsed-presentation.js';
import { isJsonObject } from '../shared/decode-jwt.js';

// Defined, not assigned: a "__proto__" claim stays a plain property and never sets a prototype.
const define = (target: Record<string, unknown>, key: string, value: unknown): void => {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
};

/**
 * The issuer payload with its disclosures applied (RFC 9901 section 7.1, structural only), from
 * disclosures already decoded and digested by the parser, so nothing is decoded or hashed twice.
 * Resolves as @sd-jwt/decode's `getClaims` did before (a differential test pins that): a digest
 * without a disclosure drops its array element or object member; an object-property disclosure
 * replaces a member of the same name; `_sd` members go; top-level `_sd_alg` goes. Reference rules
 * (duplicates, unreferenced disclosures, reserved names) are the verify policy's. The result
 * shares no object with the payload or the disclosures. Depth is bounded by the caller's checks
 * (payload and disclosure values within the JSON depth limit, disclosures nested a bounded number
 * of levels, each digest referenced once).
 */
export function resolveSdClaims(payload: JsonObject, disclosures: readonly SdJwtDisclosure[]): unknown {
  const byDigest = new Map<string, SdJwtDisclosure>();
  for (const d of disclosures) byDigest.set(d.digest, d);
  const top: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(payload)) if (key !== '_sd_alg') top[key] = payload[key];
  return resolveObject(top, byDigest);
}

function resolve(value: unknown, byDigest: ReadonlyMap<string, SdJwtDisclosure>): unknown {
  if (Array.isArray(value)) return resolveArray(value, byDigest);
  if (isJsonObject(value)) return resolveObject(value, byDigest);
  return value;
}

function resolveArray(items: readonly unknown[], byDigest: ReadonlyMap<string, SdJwtDisclosure>): unknown[] {
  const out: unknown[] = [];
  for (const item of items) {
    const digest = isJsonObject(item) ? item['...'] : undefined;
    // Any truthy "..." marks a digest reference; one without a disclosure is an undisclosed element.
    if (digest) {
      const disclosed = typeof digest === 'string' ? byDigest.get(digest) : undefined;
      if (disclosed !== undefined) out.push(resolve(disclosed.value, byDigest));
    } else {
      out.push(resolve(item, byDigest));
    }
  }
  return out;
}

function resolveObject(object: Record<string, unknown>, byDigest: ReadonlyMap<string, SdJwtDisclosure>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(object)) {
    if (key === '_sd') continue;
    // A "..." member is kept as it is (copied), not resolved.
    define(out, key, key === '...' ? copy(object[key]) : resolve(object[key], byDigest));
  }
  const digests = object._sd;
  if (Array.isArray(digests)) {
    for (const digest of digests) {
      const disclosed = typeof digest === 'string' ? byDigest.get(digest) : undefined;
      // Only an object-property disclosure with a non-empty name adds a member.
      if (disclosed?.key) define(out, disclosed.key, resolve(disclosed.value, byDigest));
    }
  } else if (digests && typeof digests !== 'string') {
    // As the library: a falsy or string `_sd` adds nothing, any other non-array cannot be applied.
    throw new TypeError('_sd is not an array');
  }
  return out;
}

const copy = (value: unknown): unknown => (value !== null && typeof value === 'object' ? JSON.parse(JSON.stringify(value)) : value);
