import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/config-error.js';
import { corsDecision, MAX_CORS_REQUEST_HEADERS_COUNT, MAX_CORS_REQUEST_HEADERS_LENGTH, type CorsRequest } from './cors-decision.js';
import { resolveCorsConfig } from './resolve-cors-config.js';

const A = 'https://rp.example';
const get = (origin: string | null): CorsRequest => ({ method: 'GET', origin, accessControlRequestMethod: null, accessControlRequestHeaders: null });
const preflight = (origin: string, method = 'POST', headers: string | null = null): CorsRequest => ({
  method: 'OPTIONS',
  origin,
  accessControlRequestMethod: method,
  accessControlRequestHeaders: headers,
});
const header = (headers: [string, string][], name: string) => headers.filter(([n]) => n.toLowerCase() === name.toLowerCase()).map(([, v]) => v);

describe('resolveCorsConfig', () => {
  it('fills the documented defaults', () => {
    expect(resolveCorsConfig()).toEqual({
      enabled: false,
      allowHeaders: [],
      allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      credentials: false,
      exposeHeaders: [],
      maxAge: 86400,
      origin: ['*'],
    });
  });

  it('rejects credentials with "*" at construction with a clear message', () => {
    expect(() => resolveCorsConfig({ enabled: true, credentials: true })).toThrow(ConfigError);
    expect(() => resolveCorsConfig({ enabled: true, credentials: true, origin: ['*'] })).toThrow(/credentials: true cannot be combined with origin "\*"/);
  });

  it.each([
    [{ maxAge: -1 }, /maxAge must be between 0 and 86400/],
    [{ maxAge: 86401 }, /maxAge must be between 0 and 86400/],
    [{ maxAge: 1.5 }, /whole number/],
    [{ allowMethods: ['TRACE'] }, /allowMethods entries must be one of/],
    [{ origin: ['https://a.example/path'] }, /without a path/],
    [{ origin: [] }, /at least one origin/],
    [{ allowHeaders: ['bad header'] }, /header names/],
    [{ unknown: true }, /unknown/i],
  ])('rejects %j', (input, message) => {
    expect(() => resolveCorsConfig(input as never)).toThrow(message);
  });

  it('accepts the boundary maxAge values and HEAD', () => {
    expect(resolveCorsConfig({ maxAge: 0 }).maxAge).toBe(0);
    expect(resolveCorsConfig({ maxAge: 86400 }).maxAge).toBe(86400);
    expect(resolveCorsConfig({ allowMethods: ['HEAD'] }).allowMethods).toEqual(['HEAD']);
  });

  it('normalises configured origins', () => {
    expect(resolveCorsConfig({ origin: ['HTTPS://RP.Example:443/'] }).origin).toEqual(['https://rp.example']);
  });
});

describe('corsDecision', () => {
  it('does nothing when disabled, even for a preflight', () => {
    expect(corsDecision(resolveCorsConfig({ enabled: false }), preflight(A))).toEqual({ preflight: false, allowed: false, headers: [] });
  });

  it('answers "*" for any origin with the default origin list, without Vary', () => {
    const d = corsDecision(resolveCorsConfig({ enabled: true }), get(A));
    expect(d.allowed).toBe(true);
    expect(header(d.headers, 'access-control-allow-origin')).toEqual(['*']);
    expect(header(d.headers, 'vary')).toEqual([]);
    expect(header(d.headers, 'access-control-allow-credentials')).toEqual([]);
  });

  it('echoes a listed origin with Vary: Origin and credentials', () => {
    const d = corsDecision(resolveCorsConfig({ enabled: true, origin: [A], credentials: true }), get(A));
    expect(d.headers).toEqual([
      ['Vary', 'Origin'],
      ['Access-Control-Allow-Origin', A],
      ['Access-Control-Allow-Credentials', 'true'],
      ['Access-Control-Expose-Headers', 'Cache-Control, Content-Language, Content-Length, Content-Type, Expires, Last-Modified, Pragma'],
    ]);
  });

  it('refuses an unlisted origin but still sends Vary: Origin', () => {
    const d = corsDecision(resolveCorsConfig({ enabled: true, origin: [A] }), get('https://evil.example'));
    expect(d).toEqual({ preflight: false, allowed: false, headers: [['Vary', 'Origin']] });
  });

  it('sends Vary: Origin for a request without Origin when origins are listed', () => {
    expect(corsDecision(resolveCorsConfig({ enabled: true, origin: [A] }), get(null)).headers).toEqual([['Vary', 'Origin']]);
  });

  it('adds configured expose headers to the always-exposed ones without duplicates', () => {
    const d = corsDecision(resolveCorsConfig({ enabled: true, exposeHeaders: ['X-Request-Id', 'content-type'] }), get(A));
    expect(header(d.headers, 'access-control-expose-headers')).toEqual([
      'Cache-Control, Content-Language, Content-Length, Content-Type, Expires, Last-Modified, Pragma, X-Request-Id',
    ]);
  });

  it('answers an allowed preflight with methods, headers and max-age', () => {
    const config = resolveCorsConfig({ enabled: true, origin: [A], allowHeaders: ['Authorization'] });
    const d = corsDecision(config, preflight(A, 'POST', 'content-type, AUTHORIZATION'));
    expect(d.preflight).toBe(true);
    expect(d.allowed).toBe(true);
    expect(d.headers).toEqual([
      ['Vary', 'Origin'],
      ['Access-Control-Allow-Origin', A],
      ['Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS'],
      ['Access-Control-Allow-Headers', 'Accept, Accept-Language, Content-Language, Content-Type, Authorization'],
      ['Access-Control-Max-Age', '86400'],
    ]);
  });

  it('sends Access-Control-Max-Age: 0', () => {
    const d = corsDecision(resolveCorsConfig({ enabled: true, maxAge: 0 }), preflight(A));
    expect(header(d.headers, 'access-control-max-age')).toEqual(['0']);
  });

  it('always allows the safelisted request headers, matching case-insensitively', () => {
    const d = corsDecision(resolveCorsConfig({ enabled: true }), preflight(A, 'POST', 'ACCEPT,accept-language , Content-Language,CONTENT-TYPE'));
    expect(d.allowed).toBe(true);
  });

  it('matches configured allowHeaders case-insensitively', () => {
    const config = resolveCorsConfig({ enabled: true, allowHeaders: ['X-Api-Key'] });
    expect(corsDecision(config, preflight(A, 'POST', 'x-api-key')).allowed).toBe(true);
  });

  it('refuses a preflight asking for a header that is not allowed', () => {
    const d = corsDecision(resolveCorsConfig({ enabled: true, origin: [A] }), preflight(A, 'POST', 'authorization'));
    expect(d).toEqual({ preflight: true, allowed: false, headers: [['Vary', 'Origin']] });
  });

  it('refuses a preflight asking for a method that is not allowed', () => {
    const d = corsDecision(resolveCorsConfig({ enabled: true, allowMethods: ['GET'] }), preflight(A, 'DELETE'));
    expect(d.preflight).toBe(true);
    expect(d.allowed).toBe(false);
    expect(header(d.headers, 'access-control-allow-origin')).toEqual([]);
  });

  it('refuses a preflight from an unlisted origin with only Vary: Origin', () => {
    const d = corsDecision(resolveCorsConfig({ enabled: true, origin: [A] }), preflight('https://evil.example'));
    expect(d).toEqual({ preflight: true, allowed: false, headers: [['Vary', 'Origin']] });
  });

  it('ignores empty entries in Access-Control-Request-Headers', () => {
    expect(corsDecision(resolveCorsConfig({ enabled: true }), preflight(A, 'POST', ' , content-type,')).allowed).toBe(true);
  });
});

// Regression tests for faults other CORS layers have shipped.
describe('regressions', () => {
  it('credentialed wildcard echo: "*" with credentials cannot be configured, so no origin is ever echoed for "*"', () => {
    expect(() => resolveCorsConfig({ enabled: true, origin: ['*'], credentials: true })).toThrow(ConfigError);
    const d = corsDecision(resolveCorsConfig({ enabled: true, origin: ['*'] }), get('https://evil.example'));
    expect(header(d.headers, 'access-control-allow-origin')).toEqual(['*']);
    expect(header(d.headers, 'access-control-allow-credentials')).toEqual([]);
  });

  it('every OPTIONS treated as preflight: OPTIONS without Access-Control-Request-Method or Origin is not a preflight', () => {
    const config = resolveCorsConfig({ enabled: true, origin: [A] });
    expect(corsDecision(config, { method: 'OPTIONS', origin: A, accessControlRequestMethod: null, accessControlRequestHeaders: null }).preflight).toBe(false);
    expect(corsDecision(config, { method: 'OPTIONS', origin: null, accessControlRequestMethod: 'POST', accessControlRequestHeaders: null }).preflight).toBe(false);
    expect(corsDecision(config, { method: 'options', origin: A, accessControlRequestMethod: 'POST', accessControlRequestHeaders: null }).preflight).toBe(true);
  });

  it('quadratic header parsing: an oversized Access-Control-Request-Headers is refused without splitting it', () => {
    const config = resolveCorsConfig({ enabled: true });
    // A whitespace-heavy value is what made a regex split quadratic; it is refused on length alone.
    const long = `a${' '.repeat(MAX_CORS_REQUEST_HEADERS_LENGTH)},b`;
    expect(corsDecision(config, preflight(A, 'POST', long)).allowed).toBe(false);
    const many = Array.from({ length: MAX_CORS_REQUEST_HEADERS_COUNT + 1 }, () => 'accept').join(',');
    expect(many.length).toBeLessThan(MAX_CORS_REQUEST_HEADERS_LENGTH);
    expect(corsDecision(config, preflight(A, 'POST', many)).allowed).toBe(false);
    const atCap = Array.from({ length: MAX_CORS_REQUEST_HEADERS_COUNT }, () => 'accept').join(',');
    expect(corsDecision(config, preflight(A, 'POST', atCap)).allowed).toBe(true);
  });

  it('Vary copied from the request: the decision never depends on or returns request Vary values', () => {
    const d = corsDecision(resolveCorsConfig({ enabled: true, origin: [A] }), get(A));
    expect(header(d.headers, 'vary')).toEqual(['Origin']);
  });
});
