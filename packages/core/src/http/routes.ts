import { AuthorizerError } from '../errors/authorizer-error.js';
import { createAuthorization } from '../operations/create-authorization.js';
import { receiveDcApiResponse } from '../operations/dc-api-response.js';
import { jwks, openIdConfiguration, trustAnchor } from '../operations/metadata.js';
import { getCredentials, getPolicyResponse, getStatus } from '../operations/read-authorization.js';
import { getRequestObject } from '../operations/request-object.js';
import { receiveWalletResponse } from '../operations/wallet-response.js';
import { resolveResponseCode } from '../response-code/response-code.js';
import type { AuthorizerContext } from '../runtime/authorizer-context.js';
import type { InstanceRuntime } from '../runtime/instance-runtime.js';
import type { CoreRequest, CoreResponse } from './core-request.js';
import { expectObject, parseBody } from './parse-body.js';
import { emptyResponse, jsonResponse } from './responses.js';

/** Who may call a route: RP routes need an API key; wallet routes answer OAuth-style errors. */
export type RouteAudience = 'public' | 'rp' | 'wallet';

export interface RouteInput {
  ctx: AuthorizerContext;
  request: CoreRequest;
  params: string[];
  /** The instance the API key belongs to (RP routes only; undefined elsewhere, so no route can cross instances by accident). */
  instance: InstanceRuntime;
}

export interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  /** Stable name for logs and metrics (no ids in it). */
  name: string;
  audience: RouteAudience;
  run(input: RouteInput): Promise<CoreResponse>;
}

const V = '/openid4/vp/v1_0';
const ID = '([^/]+)';
const p = (path: string) => new RegExp(`^${path.replace(/\./g, '\\.')}$`);

const json = async (status: number, value: Promise<unknown> | unknown) => jsonResponse(status, await value);
const jsonBody = (request: CoreRequest) => expectObject(parseBody(request, ['json']).value);
const formBody = (request: CoreRequest) => parseBody(request, ['form']).value as Record<string, string>;

const requestObject = async ({ ctx, request, params }: RouteInput, form?: Record<string, string>): Promise<CoreResponse> => {
  const walletMetadata = form?.wallet_metadata ?? request.query.get('wallet_metadata') ?? undefined;
  const walletNonce = form?.wallet_nonce ?? request.query.get('wallet_nonce') ?? undefined;
  const jwt = await getRequestObject(ctx, params[0]!, { ...(walletMetadata !== undefined ? { walletMetadata } : {}), ...(walletNonce !== undefined ? { walletNonce } : {}) });
  return { status: 200, headers: [['content-type', 'application/oauth-authz-req+jwt'], ['cache-control', 'no-store']], body: jwt };
};

/** Every route of design.md section 3, relative to the mount point. */
export const ROUTES: readonly Route[] = [
  { method: 'GET', pattern: p('/health'), name: 'health', audience: 'public', run: async () => emptyResponse(204) },
  { method: 'POST', pattern: p(`${V}/authorizations`), name: 'authorizations.create', audience: 'rp', run: ({ ctx, request, instance }) => json(201, createAuthorization(ctx, instance, jsonBody(request))) },
  { method: 'GET', pattern: p(`${V}/authorizations/${ID}/status`), name: 'authorizations.status', audience: 'rp', run: ({ ctx, params, instance }) => json(200, getStatus(ctx, instance.id, params[0]!)) },
  { method: 'GET', pattern: p(`${V}/authorizations/${ID}/policy-response`), name: 'authorizations.policy_response', audience: 'rp', run: ({ ctx, params, instance }) => json(200, getPolicyResponse(ctx, instance.id, params[0]!)) },
  { method: 'GET', pattern: p(`${V}/authorizations/${ID}/credentials`), name: 'authorizations.credentials', audience: 'rp', run: ({ ctx, params, instance }) => json(200, getCredentials(ctx, instance.id, params[0]!)) },
  { method: 'GET', pattern: p(`${V}/authorizations/${ID}/jwt`), name: 'authorizations.request_object', audience: 'wallet', run: (input) => requestObject(input) },
  // request_uri_method=post: wallet_metadata and wallet_nonce arrive as a form.
  { method: 'POST', pattern: p(`${V}/authorizations/${ID}/jwt`), name: 'authorizations.request_object', audience: 'wallet', run: (input) => requestObject(input, input.request.body ? formBody(input.request) : {}) },
  { method: 'POST', pattern: p(`${V}/response-code/resolve`), name: 'response_code.resolve', audience: 'rp', run: ({ ctx, request, instance }) => json(200, resolveResponseCode(ctx, instance, jsonBody(request))) },
  { method: 'POST', pattern: p(`${V}/${ID}/direct_post`), name: 'wallet.direct_post', audience: 'wallet', run: ({ ctx, request, params }) => json(200, receiveWalletResponse(ctx, params[0]!, 'direct_post', formBody(request))) },
  { method: 'POST', pattern: p(`${V}/${ID}/direct_post.jwt`), name: 'wallet.direct_post_jwt', audience: 'wallet', run: ({ ctx, request, params }) => json(200, receiveWalletResponse(ctx, params[0]!, 'direct_post.jwt', formBody(request))) },
  { method: 'POST', pattern: p(`${V}/${ID}/dc_api`), name: 'dc_api', audience: 'rp', run: ({ ctx, request, params, instance }) => json(200, receiveDcApiResponse(ctx, instance.id, params[0]!, 'dc_api', jsonBody(request))) },
  { method: 'POST', pattern: p(`${V}/${ID}/dc_api.jwt`), name: 'dc_api_jwt', audience: 'rp', run: ({ ctx, request, params, instance }) => json(200, receiveDcApiResponse(ctx, instance.id, params[0]!, 'dc_api.jwt', jsonBody(request))) },
  { method: 'GET', pattern: p(`${V}/.well-known/openid-configuration`), name: 'metadata.openid_configuration', audience: 'public', run: ({ ctx }) => json(200, openIdConfiguration(ctx)) },
  { method: 'GET', pattern: p(`${V}/jwks`), name: 'metadata.jwks', audience: 'public', run: ({ ctx }) => json(200, jwks(ctx)) },
  { method: 'GET', pattern: p('/instances/oid4vp-trust-anchor'), name: 'instances.trust_anchor', audience: 'rp', run: ({ instance }) => json(200, trustAnchor(instance)) },
];

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

const WALLET_PATH = /^\/openid4\/vp\/v1_0\/(?:authorizations\/[^/]+\/jwt|[^/]+\/direct_post(?:\.jwt)?)$/;

/** Wallet paths answer OAuth-style errors even before (or without) a route match. */
export function audienceOfPath(path: string): RouteAudience {
  return WALLET_PATH.test(path) ? 'wallet' : 'rp';
}
