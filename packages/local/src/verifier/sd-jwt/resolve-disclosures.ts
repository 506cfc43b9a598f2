import type { SdJwtDisclosure } from '@vp-authorizer/core';
import { base64UrlToUtf8, bytesToBase64Url, digest, isRecord } from '../encoding.js';
import { PolicyFailure } from '../policy-failure.js';

/** SD-JWT VC claims that must never be selectively disclosed (SD-JWT VC -13 section 3.2.2). */
const NEVER_DISCLOSED = new Set(['iss', 'nbf', 'exp', 'cnf', 'vct', 'status']);

interface Disclosure {
  /** [salt, value] (array element) or [salt, name, value] (object property). */
  parts: unknown[];
  used: boolean;
}

const invalid = (detail: string) => new PolicyFailure('proof.disclosure_invalid', detail);

function parseDisclosure(encoded: string, index: number): unknown[] {
  let parts: unknown;
  try {
    parts = JSON.parse(base64UrlToUtf8(encoded));
  } catch {
    throw invalid(`Disclosure ${index} is not base64url-encoded JSON`);
  }
  if (!Array.isArray(parts) || (parts.length !== 2 && parts.length !== 3) || typeof parts[0] !== 'string') throw invalid(`Disclosure ${index} is not a [salt, (name,) value] array`);
  if (parts.length === 3 && typeof parts[1] !== 'string') throw invalid(`Disclosure ${index} has a non-string claim name`);
  return parts;
}

// Defined, not assigned: a disclosed "__proto__" must stay a plain property.
const define = (target: Record<string, unknown>, key: string, value: unknown) => Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });

/**
 * Rebuilds the disclosed claims from the verified issuer payload (RFC 9901 section 7.1 / 7.3).
 * Rejects: malformed disclosures, a disclosure given twice, a digest seen twice, `_sd` / `...`
 * as a claim name, a name that already exists, wrong disclosure shape for its position, disclosing
 * a never-disclosable SD-JWT VC claim, and a disclosure that no digest references.
 * `decoded`, when given, is these same disclosures as core's format policy decoded and digested
 * them in this process (same shape checks, digest under the same `_sd_alg`): they are not
 * decoded and hashed again.
 */
export function resolveDisclosures(payload: Record<string, unknown>, encodedDisclosures: readonly string[], decoded?: readonly SdJwtDisclosure[]): Record<string, unknown> {
  return processDisclosures(payload, encodedDisclosures, decoded, true) as Record<string, unknown>;
}

/**
 * Every rule of resolveDisclosures, without building the claims object: for a verifier that
 * only needs to know that the disclosures are sound (the claims the relying party receives are
 * core's, from the format policy).
 */
export function checkDisclosures(payload: Record<string, unknown>, encodedDisclosures: readonly string[], decoded?: readonly SdJwtDisclosure[]): void {
  processDisclosures(payload, encodedDisclosures, decoded, false);
}

function processDisclosures(payload: Record<string, unknown>, encodedDisclosures: readonly string[], decoded: readonly SdJwtDisclosure[] | undefined, build: boolean): Record<string, unknown> | undefined {
  const hashAlg = payload._sd_alg ?? 'sha-256';
  if (typeof hashAlg !== 'string' || !['sha-256', 'sha-384', 'sha-512'].includes(hashAlg)) throw invalid('The _sd_alg hash algorithm is not supported');
  const byDigest = new Map<string, Disclosure>();
  encodedDisclosures.forEach((encoded, index) => {
    const known = decoded?.[index]?.encoded === encoded ? decoded[index] : undefined;
    const parts = known ? (Object.hasOwn(known, 'key') ? [known.salt, known.key, known.value] : [known.salt, known.value]) : parseDisclosure(encoded, index);
    const key = known ? known.digest : bytesToBase64Url(digest(hashAlg, encoded));
    if (byDigest.has(key)) throw invalid(`Disclosure ${index} is included more than once`);
    byDigest.set(key, { parts, used: false });
  });
  const seen = new Set<string>();
  const take = (d: unknown): Disclosure | undefined => {
    if (typeof d !== 'string') throw invalid('A digest is not a string');
    if (seen.has(d)) throw invalid('A digest appears more than once');
    seen.add(d);
    const disclosure = byDigest.get(d);
    if (disclosure) disclosure.used = true;
    return disclosure; // undefined = a decoy digest or an undisclosed claim
  };

  // Builds the claims when `build`; otherwise visits the same values in the same order, applying
  // the same rules (an object's names are then tracked in a set instead of an output object).
  const walk = (value: unknown, depth: number, topLevel: boolean): unknown => {
    if (depth > 64) throw invalid('The credential nests too deeply');
    if (Array.isArray(value)) {
      const out: unknown[] | undefined = build ? [] : undefined;
      for (const element of value) {
        if (isRecord(element) && '...' in element) {
          if (Object.keys(element).length !== 1) throw invalid('An array element digest object has extra members');
          const disclosure = take(element['...']);
          if (!disclosure) continue;
          if (disclosure.parts.length !== 2) throw invalid('An object property disclosure is referenced from an array');
          const item = walk(disclosure.parts[1], depth + 1, false);
          out?.push(item);
        } else {
          const item = walk(element, depth + 1, false);
          out?.push(item);
        }
      }
      return out;
    }
    if (!isRecord(value)) return value;
    const out: Record<string, unknown> | undefined = build ? {} : undefined;
    const names = build ? undefined : new Set<string>();
    for (const [key, child] of Object.entries(value)) {
      if (key === '_sd' || (topLevel && key === '_sd_alg')) continue;
      const claim = walk(child, depth + 1, false);
      if (out) define(out, key, claim);
      else names!.add(key);
    }
    const digests = value._sd;
    if (digests === undefined) return out;
    if (!Array.isArray(digests)) throw invalid('_sd is not an array');
    for (const d of digests) {
      const disclosure = take(d);
      if (!disclosure) continue;
      if (disclosure.parts.length !== 3) throw invalid('An array element disclosure is referenced from _sd');
      const name = disclosure.parts[1] as string;
      if (name === '_sd' || name === '...') throw invalid(`A disclosure uses the reserved claim name ${name}`);
      if (out ? Object.hasOwn(out, name) : names!.has(name)) throw invalid('A disclosed claim name already exists in the same object');
      if (topLevel && NEVER_DISCLOSED.has(name)) throw invalid(`The claim ${name} must not be selectively disclosed`);
      const claim = walk(disclosure.parts[2], depth + 1, false);
      if (out) define(out, name, claim);
      else names!.add(name);
    }
    return out;
  };

  const claims = walk(payload, 0, true) as Record<string, unknown> | undefined;
  const unreferenced = [...byDigest.values()].filter((d) => !d.used).length;
  if (unreferenced > 0) throw invalid(`${unreferenced} disclosure(s) are not referenced by any digest`);
  return claims;
}
