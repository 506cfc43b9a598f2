import { withinJsonDepth } from './json-depth.js';
import { base64UrlToUtf8 } from '../../crypto/base64url.js';
import type { DecodedJwt, JsonObject } from '../../model/parsed-presentation.js';

export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Parses base64url JSON that must be an object; returns undefined on any failure. */
export function decodeJsonObjectSegment(segment: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(base64UrlToUtf8(segment));
    // Deeper JSON than stores can clone or serialise never enters as a header or payload.
    return isJsonObject(value) && withinJsonDepth(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Decodes a compact JWS without verifying it (the verify policy does that). Returns a reason
 * instead of throwing so that callers choose the error code; reasons never quote the input.
 */
export function decodeCompactJwt(compact: unknown): DecodedJwt | { error: string } {
  if (typeof compact !== 'string' || compact.length === 0) return { error: 'expected a compact JWT string' };
  const parts = compact.split('.');
  if (parts.length !== 3) return { error: `expected 3 dot-separated parts, got ${parts.length}` };
  const header = decodeJsonObjectSegment(parts[0]!);
  if (!header) return { error: 'the JWT header is not a base64url-encoded JSON object' };
  const payload = decodeJsonObjectSegment(parts[1]!);
  if (!payload) return { error: 'the JWT payload is not a base64url-encoded JSON object' };
  if (parts[2]!.length === 0 || !/^[A-Za-z0-9_-]+$/.test(parts[2]!)) return { error: 'the JWT signature is missing or not base64url' };
  return { compact, header, payload };
}

export const isDecodeError = (value: DecodedJwt | { error: string }): value is { error: string } => 'error' in value;
