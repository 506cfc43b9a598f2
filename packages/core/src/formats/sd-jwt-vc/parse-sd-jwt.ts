import { withinJsonDepth } from '../shared/json-depth.js';
import { createHash } from 'node:crypto';
import { sha256Base64url } from '../../crypto/secrets.js';
import { base64UrlToUtf8, isBase64Url } from '../../crypto/base64url.js';
import { decodeCompactJwt, isDecodeError, isJsonObject } from '../shared/decode-jwt.js';
import { FormatFailure } from '../format-error.js';
import { resolveSdClaims } from './resolve-sd-claims.js';
import { rememberDecoded } from './decoded-in-process.js';
import type { PresentationRef } from '../format-descriptor.js';
import type { DecodedJwt, JsonObject, ParsedSdJwt, SdJwtDisclosure } from '../../model/parsed-presentation.js';

/** IANA "Named Information Hash Algorithm" names allowed in `_sd_alg`, mapped to node:crypto. */
const SD_HASH_ALGORITHMS: Record<string, string> = { 'sha-256': 'sha256', 'sha-384': 'sha384', 'sha-512': 'sha512' };

/**
 * base64url digest over the ASCII of the disclosure as received (`alg` already checked; `data`
 * already checked to be base64url, so its UTF-8 is its ASCII). SHA-256, nearly always, takes the
 * one-shot hash: a PID presentation carries dozens of disclosures.
 */
const sdDigest = (data: string, alg: string): string => {
  const node = SD_HASH_ALGORITHMS[alg]!;
  return node === 'sha256' ? sha256Base64url(data) : createHash(node).update(data, 'ascii').digest('base64url');
};

/** Disclosures one SD-JWT may carry (the PID has about 40; large credentials a few hundred). */
export const MAX_SD_JWT_DISCLOSURES = 1_000;
/** Levels of disclosures inside disclosures (real credentials: a handful). */
export const MAX_DISCLOSURE_NESTING = 16;

/**
 * Decodes `<issuer-jwt>~<disclosure>~…~[<kb-jwt>]` (RFC 9901 section 4). Structural only: no
 * signature checks and no digest/reference rules (unreferenced or duplicate disclosures,
 * `_sd`/`...` names); those belong to the verify policy, which gets every disclosure with
 * its digest. One exception, as a resource guard: a digest referenced twice is rejected.
 */
export function parseSdJwt(value: unknown, ref: PresentationRef): ParsedSdJwt {
  const fail = (detail: string): never => {
    throw new FormatFailure('format.sd_jwt_malformed', detail, ref.path);
  };
  if (typeof value !== 'string') return fail('an SD-JWT presentation must be a string');
  const parts = value.split('~');
  // Without any "~" this is a plain JWT, not an SD-JWT.
  if (parts.length < 2) return fail('an SD-JWT must contain "~" separators');
  // Decoding and resolving disclosures grows faster than linearly in their number (10,000 in a
  // 1 MiB body held the event loop ~500 ms); real credentials carry dozens.
  if (parts.length - 2 > MAX_SD_JWT_DISCLOSURES) return fail(`an SD-JWT may carry at most ${MAX_SD_JWT_DISCLOSURES} disclosures`);
  const issuer = decodeCompactJwt(parts[0]);
  if (isDecodeError(issuer)) return fail(`issuer-signed JWT: ${issuer.error}`);

  const rawKb = parts[parts.length - 1]!;
  let kbJwt: DecodedJwt | undefined;
  if (rawKb !== '') {
    const kb = decodeCompactJwt(rawKb);
    if (isDecodeError(kb)) return fail(`key binding JWT: ${kb.error}`);
    kbJwt = kb;
  }

  const sdAlg = issuer.payload._sd_alg ?? 'sha-256';
  // Names as the registry spells them (lower case), as the verifier reads them: "SHA-256" is not one.
  if (typeof sdAlg !== 'string' || !Object.hasOwn(SD_HASH_ALGORITHMS, sdAlg)) return fail('unsupported _sd_alg');

  const encodedDisclosures = parts.slice(1, -1);
  const disclosures: SdJwtDisclosure[] = encodedDisclosures.map((encoded, i) => {
    const where = `disclosure ${i + 1}`;
    if (encoded === '' || !isBase64Url(encoded)) return fail(`${where} is empty or not base64url`);
    let array: unknown;
    try {
      array = JSON.parse(base64UrlToUtf8(encoded));
    } catch {
      return fail(`${where} is not base64url-encoded JSON`);
    }
    if (!withinJsonDepth(array)) return fail(`${where} is nested too deeply`);
    if (!Array.isArray(array) || (array.length !== 2 && array.length !== 3) || typeof array[0] !== 'string') {
      return fail(`${where} must be a JSON array [salt, value] or [salt, name, value]`);
    }
    if (array.length === 3 && typeof array[1] !== 'string') return fail(`${where} has a claim name that is not a string`);
    const disclosure: SdJwtDisclosure = { encoded, digest: sdDigest(encoded, sdAlg), salt: array[0] as string, value: array[array.length - 1] };
    if (array.length === 3) disclosure.key = array[1] as string;
    return disclosure;
  });

  // The resolver recurses through disclosure values: a digest referenced twice allows cycles
  // and exponential expansion. RFC 9901 forbids it anyway; checked here as a resource guard.
  const presented = new Set(disclosures.map((d) => d.digest));
  const seen = new Set<string>();
  const roots = [issuer.payload, ...disclosures.map((d) => d.value)];
  for (const digest of roots.flatMap(referencedDigests)) {
    if (!presented.has(digest)) continue;
    if (seen.has(digest)) return fail('a disclosure digest is referenced more than once');
    seen.add(digest);
  }
  // The library's resolver copies every claim path into each enclosing level: a long chain of
  // nested disclosures costs quadratic time and memory. Each digest is referenced once (above),
  // so walking the levels is linear.
  const byDigest = new Map(disclosures.map((d) => [d.digest, d]));
  let level = referencedDigests(issuer.payload).filter((d) => byDigest.has(d));
  for (let depth = 1; level.length > 0; depth++) {
    if (depth > MAX_DISCLOSURE_NESTING) return fail(`disclosures may nest at most ${MAX_DISCLOSURE_NESTING} levels deep`);
    level = level.flatMap((digest) => referencedDigests(byDigest.get(digest)!.value)).filter((d) => byDigest.has(d));
  }

  let claims: JsonObject;
  try {
    // Resolves `_sd` / `{"...": digest}` with the disclosures decoded above; input was validated
    // above, so a throw here means an unusable payload structure.
    const resolved = resolveSdClaims(issuer.payload, disclosures);
    if (!isJsonObject(resolved)) return fail('the issuer-signed payload could not be resolved');
    // Stores clone and serialise claims: keep them within what they can handle.
    if (!withinJsonDepth(resolved)) return fail('the disclosed claims are nested too deeply');
    // The resolver's result shares nothing with the payload or the disclosures: strip it in place.
    stripSdMembers(resolved);
    claims = resolved;
  } catch (cause) {
    if (cause instanceof FormatFailure) throw cause;
    return fail('the disclosures could not be applied to the issuer-signed payload');
  }

  const parsed: ParsedSdJwt = { ...ref, kind: 'sd-jwt', raw: value, issuerJwt: issuer, disclosures, claims };
  if (kbJwt) parsed.kbJwt = kbJwt;
  if (typeof issuer.payload.vct === 'string') parsed.vct = issuer.payload.vct;
  rememberDecoded(parsed);
  return parsed;
}

/** Digests in `_sd` arrays and `{"...": digest}` array entries, at any depth. */
function referencedDigests(value: unknown): string[] {
  const found: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (Array.isArray(current)) {
      for (const item of current) {
        if (isJsonObject(item) && typeof item['...'] === 'string' && Object.keys(item).length === 1) found.push(item['...']);
        else stack.push(item);
      }
    } else if (isJsonObject(current)) {
      for (const [k, v] of Object.entries(current)) {
        if (k === '_sd' && Array.isArray(v)) found.push(...v.filter((d): d is string => typeof d === 'string'));
        else stack.push(v);
      }
    }
  }
  return found;
}

/**
 * Removes, in place, leftover `_sd` and `_sd_alg` members and undisclosed `{"...": digest}` array
 * entries (the resolver already drops most; a nested `_sd_alg` or a `{"...": ""}` remain). Walks
 * without allocating when there is nothing to remove, which is the usual case.
 */
function stripSdMembers(value: unknown): void {
  if (Array.isArray(value)) {
    let kept = 0;
    for (const item of value) {
      if (isJsonObject(item) && Object.keys(item).length === 1 && '...' in item) continue;
      stripSdMembers(item);
      value[kept++] = item;
    }
    value.length = kept;
  } else if (isJsonObject(value)) {
    // Own members only: the resolver defines a "__proto__" claim as a plain property.
    if (Object.hasOwn(value, '_sd')) delete value._sd;
    if (Object.hasOwn(value, '_sd_alg')) delete value._sd_alg;
    for (const key of Object.keys(value)) stripSdMembers(value[key]);
  }
}
