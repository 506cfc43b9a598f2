import type { CorsConfig } from '../config/cors-config.js';

/** Request headers that are always allowed (seed 2.5). Content-Type is listed because non-simple values (application/json) need it. */
export const CORS_SAFELISTED_REQUEST_HEADERS = ['Accept', 'Accept-Language', 'Content-Language', 'Content-Type'] as const;

/** Response headers that are always exposed to browser scripts (seed 2.5). */
export const CORS_ALWAYS_EXPOSED_HEADERS = ['Cache-Control', 'Content-Language', 'Content-Length', 'Content-Type', 'Expires', 'Last-Modified', 'Pragma'] as const;

/**
 * Caps on Access-Control-Request-Headers. Browsers send a handful of names; a longer value is
 * refused before it is split, so parsing stays linear and bounded (Hono's regex split was quadratic).
 */
export const MAX_CORS_REQUEST_HEADERS_LENGTH = 4096;
export const MAX_CORS_REQUEST_HEADERS_COUNT = 64;

/** The four request facts CORS depends on; adapters read them from their framework's request. */
export interface CorsRequest {
  method: string;
  origin: string | null;
  accessControlRequestMethod: string | null;
  accessControlRequestHeaders: string | null;
}

export interface CorsDecision {
  /** OPTIONS + Origin + Access-Control-Request-Method: answer 204 with Content-Length: 0, never call the handler. */
  preflight: boolean;
  /** The origin (and, for a preflight, the method and headers) passed; false also for non-CORS requests. */
  allowed: boolean;
  /**
   * Headers to add to the response. `Vary` entries must be APPENDED to any Vary the response
   * already has (see appendVary), never set over it, and never copied from the request.
   */
  headers: [string, string][];
}

/** Pure CORS decision for one request under a validated `cors` config (seed section 2.5). */
export function corsDecision(config: CorsConfig, request: CorsRequest): CorsDecision {
  if (!config.enabled) return { preflight: false, allowed: false, headers: [] };
  const origin = request.origin || null;
  // A bare OPTIONS (no Origin or no Access-Control-Request-Method) is an ordinary request for the handler.
  const preflight = request.method.toUpperCase() === 'OPTIONS' && origin !== null && !!request.accessControlRequestMethod;

  const anyOrigin = config.origin.includes('*');
  // With an allow-list the answer depends on Origin, so caches must key on it, including
  // for refused and origin-less requests (otherwise one origin's answer is served to another).
  const headers: [string, string][] = anyOrigin ? [] : [['Vary', 'Origin']];
  if (origin === null || !(anyOrigin || config.origin.includes(origin))) return { preflight, allowed: false, headers };
  if (preflight && !(methodAllowed(config, request.accessControlRequestMethod!) && headersAllowed(config, request.accessControlRequestHeaders))) {
    return { preflight, allowed: false, headers };
  }

  // credentials + "*" is rejected when the config is built, so "*" is never sent with credentials.
  headers.push(['Access-Control-Allow-Origin', anyOrigin ? '*' : origin]);
  if (config.credentials) headers.push(['Access-Control-Allow-Credentials', 'true']);
  if (preflight) {
    headers.push(['Access-Control-Allow-Methods', config.allowMethods.join(', ')]);
    headers.push(['Access-Control-Allow-Headers', unionCaseInsensitive(CORS_SAFELISTED_REQUEST_HEADERS, config.allowHeaders).join(', ')]);
    // 0 is a real value ("do not cache the preflight") and is sent like any other.
    headers.push(['Access-Control-Max-Age', String(config.maxAge)]);
  } else {
    headers.push(['Access-Control-Expose-Headers', unionCaseInsensitive(CORS_ALWAYS_EXPOSED_HEADERS, config.exposeHeaders).join(', ')]);
  }
  return { preflight, allowed: true, headers };
}

function methodAllowed(config: CorsConfig, requested: string): boolean {
  // Methods are case-sensitive tokens; browsers upper-case the standard ones before asking.
  return (config.allowMethods as readonly string[]).includes(requested.trim());
}

function headersAllowed(config: CorsConfig, requested: string | null): boolean {
  if (!requested) return true;
  if (requested.length > MAX_CORS_REQUEST_HEADERS_LENGTH) return false;
  const allowed = new Set([...CORS_SAFELISTED_REQUEST_HEADERS, ...config.allowHeaders].map((h) => h.toLowerCase()));
  const names = requested.split(',');
  if (names.length > MAX_CORS_REQUEST_HEADERS_COUNT) return false;
  for (const raw of names) {
    const name = raw.trim().toLowerCase();
    if (name !== '' && !allowed.has(name)) return false;
  }
  return true;
}

function unionCaseInsensitive(base: readonly string[], extra: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const name of [...base, ...extra]) {
    if (seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    out.push(name);
  }
  return out;
}
