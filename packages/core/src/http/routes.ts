import { ENDPOINTS } from '../endpoints/index.js';
import type { Audience, Endpoint, EndpointInput } from '../endpoints/endpoint.js';
import { AuthorizerError } from '../errors/authorizer-error.js';
import type { CoreResponse } from '../wire/core-request.js';
import type { ErrorAudience } from '../wire/responses.js';

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

/** How many `/` a path holds: a template parameter matches exactly one non-empty segment. */
function slashes(path: string): number {
  let count = 0;
  for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1)) count++;
  return count;
}

/**
 * The routes grouped by segment count, in table order: a path can only match routes with as many
 * segments, so a lookup tries a handful of patterns instead of the whole table, with the same
 * outcome (first match in table order, the same Allow list).
 */
const ROUTES_BY_SLASHES = new Map<number, Route[]>();
for (const route of ROUTES) {
  const n = slashes(route.path);
  const group = ROUTES_BY_SLASHES.get(n);
  if (group) group.push(route);
  else ROUTES_BY_SLASHES.set(n, [route]);
}
const NONE: readonly Route[] = [];
const candidates = (path: string) => ROUTES_BY_SLASHES.get(slashes(path)) ?? NONE;

export interface RouteMatch {
  route: Route;
  params: string[];
}

/**
 * Find the route for a request; 404 for unknown paths, 405 (with Allow) for known paths.
 *
 * HEAD is answered like GET, without a body — except on a route whose GET has an effect
 * (`getHasEffect`: the request object's fetch), where it answers 405 and is not in Allow. The
 * choice of 405 over "the GET's headers without its effect": those headers depend on what the GET
 * would decide (served, already fetched under singleFetch, expired, unknown), so they would need a
 * second, effect-free copy of the operation kept in step with the first, and a store read for a
 * request no wallet makes (OpenID4VP fetches a request_uri by GET or POST). Refusing here, before
 * any operation runs, is one place every adapter goes through.
 */
export function matchRoute(method: string, path: string): RouteMatch {
  const allowed: string[] = [];
  const upper = method.toUpperCase();
  const head = upper === 'HEAD';
  const wanted = head ? 'GET' : upper;
  let headServed = false;
  for (const route of candidates(path)) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    if (route.method === wanted && !(head && route.getHasEffect)) return { route, params: m.length === 1 ? [] : m.slice(1).map(decodeSegment) };
    allowed.push(route.method);
    if (route.method === 'GET' && !route.getHasEffect) headServed = true;
  }
  if (allowed.length > 0) throw new MethodNotAllowedError(headServed ? [...allowed, 'HEAD'] : allowed, upper === 'OPTIONS' ? PREFLIGHT_HINT : undefined);
  throw new AuthorizerError('request.route_not_found');
}

/**
 * The answer as `method` gets it: a HEAD answer keeps the GET's status and headers and drops its
 * body (RFC 9110 §9.3.2), and its stream is cancelled (nobody will read it: its slot and timers
 * are released now). With matchRoute, the one place HEAD is decided.
 */
export function answerTo(method: string, response: CoreResponse): CoreResponse {
  if (method.toUpperCase() !== 'HEAD') return response;
  delete response.body;
  response.stream?.cancel();
  delete response.stream;
  return response;
}

function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}

/** No route takes OPTIONS: one reaching the core is a CORS preflight no middleware answered. */
const PREFLIGHT_HINT =
  'CORS preflights are answered by the cors() middleware of your adapter (@vp-authorizer/express, hono, koa; the cors option of @vp-authorizer/fastify), mounted in front of the authorizer, with cors enabled in the instance configuration.';

/** 405 with the methods the path does take, for the Allow header. */
export class MethodNotAllowedError extends AuthorizerError {
  readonly allow: string[];
  constructor(allow: string[], hint?: string) {
    super('request.method_not_allowed', { message: `Allowed methods: ${allow.join(', ')}.${hint ? ` ${hint}` : ''}` });
    this.allow = allow;
  }
}

/**
 * The one decision of an error's format. Wallet paths answer OAuth-style errors even before (or
 * without) a route match: any path a wallet endpoint serves, whatever the method, is the wallet's
 * (so a matched route's audience never disagrees with its path's).
 */
export function audienceOfPath(path: string): ErrorAudience {
  return candidates(path).some((route) => route.audience === 'wallet' && route.pattern.test(path)) ? 'wallet' : 'rp';
}
