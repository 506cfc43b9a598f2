import { ENDPOINTS } from '../endpoints/index.js';
import type { Audience, Endpoint, EndpointInput } from '../endpoints/endpoint.js';
import { AuthorizerError } from '../errors/authorizer-error.js';

/** Who may call a route: RP routes need an API key; wallet routes answer OAuth-style errors. */
export type RouteAudience = Audience;
export type RouteInput = EndpointInput;

/** An endpoint of the table with its path compiled for matching. */
export interface Route extends Endpoint {
  pattern: RegExp;
}

const escape = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
/** `/a/{id}/b` → `^/a/([^/]+)/b$`: one capture per template parameter, in order. */
const compile = (path: string) => new RegExp(`^${path.split(/\{[^}]+\}/).map(escape).join('([^/]+)')}$`);

/** Every route of the endpoint table, relative to the mount point. */
export const ROUTES: readonly Route[] = ENDPOINTS.map((endpoint) => ({ ...endpoint, pattern: compile(endpoint.path) }));

export interface RouteMatch {
  route: Route;
  params: string[];
}

/** Find the route for a request; 404 for unknown paths, 405 (with Allow) for known paths. */
export function matchRoute(method: string, path: string): RouteMatch {
  const allowed: string[] = [];
  // HEAD is answered like GET, without a body.
  const wanted = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  for (const route of ROUTES) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    if (route.method === wanted) return { route, params: m.slice(1).map(decodeSegment) };
    allowed.push(route.method);
  }
  if (allowed.length > 0) throw new MethodNotAllowedError(allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed);
  throw new AuthorizerError('request.route_not_found');
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}

/** 405 with the methods the path does take, for the Allow header. */
export class MethodNotAllowedError extends AuthorizerError {
  readonly allow: string[];
  constructor(allow: string[]) {
    super('request.method_not_allowed', { message: `Allowed methods: ${allow.join(', ')}.` });
    this.allow = allow;
  }
}

const WALLET_ROUTES = ROUTES.filter((route) => route.audience === 'wallet');

/**
 * Wallet paths answer OAuth-style errors even before (or without) a route match: any path a
 * wallet endpoint serves, whatever the method, is the wallet's.
 */
export function audienceOfPath(path: string): RouteAudience {
  return WALLET_ROUTES.some((route) => route.pattern.test(path)) ? 'wallet' : 'rp';
}
