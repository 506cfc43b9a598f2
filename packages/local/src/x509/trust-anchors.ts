import { parsePemCertificates, type ParsedCertificate } from './certificate.js';

// Anchors are configured once and reused for every call; parse each PEM text only once.
const cache = new Map<string, ParsedCertificate[]>();
const CACHE_LIMIT = 256;

/** Parses PEM trust anchors (throws a TypeError naming the bad entry's index on invalid PEM). */
export function parseTrustAnchors(anchorsPem: readonly string[]): ParsedCertificate[] {
  return anchorsPem.flatMap((pem, index) => {
    const hit = cache.get(pem);
    if (hit) return hit;
    let parsed: ParsedCertificate[];
    try {
      parsed = parsePemCertificates(pem);
    } catch (error) {
      throw new TypeError(`Trust anchor ${index} is not a valid PEM certificate: ${(error as Error).message}`);
    }
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(pem, parsed);
    return parsed;
  });
}
