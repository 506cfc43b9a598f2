import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AuthorizerError } from '../errors/authorizer-error.js';
import { ROUTES, MethodNotAllowedError, audienceOfPath, matchRoute } from './routes.js';

/** What matching was before the lookup by segment count: every pattern of the table, in order. */
function scanWholeTable(method: string, path: string): { name: string; params: string[] } | { allow: string[] } | 'not found' {
  const head = method.toUpperCase() === 'HEAD';
  const wanted = head ? 'GET' : method.toUpperCase();
  const allowed: string[] = [];
  let headServed = false;
  for (const route of ROUTES) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    // HEAD never runs a GET that has an effect (the request object's fetch).
    if (route.method === wanted && !(head && route.getHasEffect)) {
      return {
        name: route.name,
        params: m.slice(1).map((s) => {
          try {
            return decodeURIComponent(s);
          } catch {
            return '';
          }
        }),
      };
    }
    allowed.push(route.method);
    if (route.method === 'GET' && !route.getHasEffect) headServed = true;
  }
  if (allowed.length > 0) return { allow: headServed ? [...allowed, 'HEAD'] : allowed };
  return 'not found';
}

function lookUp(method: string, path: string): ReturnType<typeof scanWholeTable> {
  try {
    const { route, params } = matchRoute(method, path);
    return { name: route.name, params };
  } catch (error) {
    if (error instanceof MethodNotAllowedError) return { allow: error.allow };
    if (error instanceof AuthorizerError && error.code === 'request.route_not_found') return 'not found';
    throw error;
  }
}

const segment = fc.oneof(
  fc.constantFrom('openid4', 'vp', 'v1_0', 'authorizations', 'status', 'jwt', 'direct_post', 'direct_post.jwt', 'dc_api', 'response-code', 'resolve', 'health', 'ready', '.well-known', 'openid-configuration', 'jwks', 'instances', 'events', ''),
  fc.constantFrom('abc%20d', '%E0%A4%A', '%2F', 'A_b-9'),
  fc.string({ maxLength: 8 }),
);
/** Paths near the table's templates (each template with its parameters filled in, segments swapped, added or dropped) and random ones. */
const path = fc.oneof(
  fc.tuple(fc.constantFrom(...ROUTES.map((r) => r.path)), fc.array(segment, { minLength: 1, maxLength: 3 }), fc.nat(7)).map(([template, fill, at]) => {
    const parts = template.replace(/\{[^}]+\}/g, () => fill[0]!).split('/');
    if (fill.length > 1) parts.splice(Math.min(at, parts.length), fill.length === 2 ? 1 : 0, fill[1]!);
    return parts.join('/');
  }),
  fc.array(segment, { maxLength: 8 }).map((parts) => `/${parts.join('/')}`),
  fc.string({ maxLength: 40 }),
);

describe('matchRoute', () => {
  it('finds, for any method and path, what scanning the whole table in order finds: the route and decoded parameters, the Allow list, or nothing', () => {
    fc.assert(
      fc.property(fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'delete', 'OPTIONS'), path, (method, p) => {
        expect(lookUp(method, p)).toEqual(scanWholeTable(method, p));
      }),
      { numRuns: 5000 },
    );
  });

  it('matches every route of the table on its own path', () => {
    for (const route of ROUTES) {
      const concrete = route.path.replace(/\{[^}]+\}/g, 'id%2D1');
      const found = lookUp(route.method, concrete);
      expect(found).toEqual(scanWholeTable(route.method, concrete));
      expect(found).toMatchObject({ params: route.path.includes('{') ? ['id-1'] : [] });
    }
  });

  it('keeps the wallet audience of wallet paths whatever the method, and the relying party elsewhere', () => {
    expect(audienceOfPath('/openid4/vp/v1_0/abc/direct_post.jwt')).toBe('wallet');
    expect(audienceOfPath('/openid4/vp/v1_0/authorizations/abc/jwt')).toBe('wallet');
    expect(audienceOfPath('/openid4/vp/v1_0/authorizations/abc/status')).toBe('rp');
    expect(audienceOfPath('/openid4/vp/v1_0/abc/direct_post.jwt/x')).toBe('rp');
    fc.assert(
      fc.property(path, (p) => {
        expect(audienceOfPath(p)).toBe(ROUTES.some((r) => r.audience === 'wallet' && r.pattern.test(p)) ? 'wallet' : 'rp');
      }),
      { numRuns: 3000 },
    );
  });
});
